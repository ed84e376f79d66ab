import { describe, expect, it } from 'vitest';
import { connected, useScriptedClients } from '../client/harness.js';

useScriptedClients();

/** Checklist §9.3 (cancellation): races and cancellations the client cannot match. */
describe('spec: cancellation', () => {
  it('ignores a server cancellation of a request it never saw, and one with no requestId, and keeps working', async () => {
    const { client, server } = await connected();
    await server.notify('notifications/cancelled', { requestId: 'never-sent', reason: 'gone' });
    await server.notify('notifications/cancelled', { reason: 'no id at all' });
    await server.assertNoMessage(50);
    const ping = client.ping();
    await server.answer('ping', {});
    await expect(ping).resolves.toBeUndefined();
  });
});
