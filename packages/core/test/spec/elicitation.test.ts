import { describe, expect, it } from 'vitest';
import type { ElicitationHandler } from '../../src/index.js';
import { connected, useScriptedClients } from '../client/harness.js';

useScriptedClients();

/** Checklist §8.3 (elicitation, 2025-11-25 URL mode): the completion notification. */
describe('spec: elicitation', () => {
  it('takes a notifications/elicitation/complete for an id it never saw without an error, a reply or a handler call', async () => {
    let calls = 0;
    const handler: ElicitationHandler = () => {
      calls += 1;
      return { action: 'decline' };
    };
    const { client, server, errors } = await connected({ elicitation: { handler, url: true } });
    await server.notify('notifications/elicitation/complete', { elicitationId: 'unknown-id' });
    await server.assertNoMessage(50);
    const ping = client.ping();
    await server.answer('ping', {});
    await expect(ping).resolves.toBeUndefined();
    expect(calls).toBe(0);
    expect(errors).toEqual([]);
  });
});
