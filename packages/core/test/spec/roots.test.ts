import { describe, expect, it } from 'vitest';
import { connected, useScriptedClients } from '../client/harness.js';

useScriptedClients();

/** Checklist §8.1 (roots, 2024-11-05 … 2025-11-25). */
describe('spec: roots', () => {
  it('declares roots.listChanged for a roots function and sends notifications/roots/list_changed when told they changed', async () => {
    let roots = [{ uri: 'file:///work/a', name: 'a' }];
    const { client, server } = await connected({ roots: () => roots });
    roots = [...roots, { uri: 'file:///work/b', name: 'b' }];
    await client.notifyRootsChanged();
    const notification = await server.expect('notifications/roots/list_changed');
    expect(notification).not.toHaveProperty('id');
    const listed = await server.request('roots/list');
    expect(listed.result).toEqual({ roots });
  });

  it('answers roots/list with -32601 when the app gave no roots', async () => {
    const { server } = await connected();
    const response = await server.request('roots/list');
    expect(response.error?.code).toBe(-32601);
    expect(response.result).toBeUndefined();
  });
});
