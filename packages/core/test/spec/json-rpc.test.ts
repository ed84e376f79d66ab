import { describe, expect, it } from 'vitest';
import { connected, useScriptedClients } from '../client/harness.js';

useScriptedClients();

/** Checklist §2 (JSON-RPC framing): the client as the answering side of a legacy session. */
describe('spec: JSON-RPC framing', () => {
  it('answers a server request exactly once, under its id unchanged in value and JSON type', async () => {
    const { server } = await connected();
    const byNumber = await server.request('ping', undefined, 7);
    const byString = await server.request('ping', undefined, '7');
    expect(byNumber).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    expect(byString).toEqual({ jsonrpc: '2.0', id: '7', result: {} });
    // A second answer to either would reach the inbox and fail verify() at teardown.
    await server.assertNoMessage(50);
  });

  it('never answers a notification, known or not, and keeps working', async () => {
    const { client, server } = await connected();
    await server.notify('notifications/tools/list_changed');
    await server.notify('notifications/vendor.example/something', { any: 'thing' });
    await server.assertNoMessage(50);
    const ping = client.ping();
    await server.answer('ping', {});
    await expect(ping).resolves.toBeUndefined();
  });
});
