import { describe, expect, it } from 'vitest';
import { McpError } from '../../../src/index.js';
import { discover } from '../../spec/modern-scripted.js';
import { scripted, useScriptedClients } from '../harness.js';

// Each test's scripted server fails it on any message the test did not expect:
// "sends nothing" is checked there.
useScriptedClients();

/** The legacy methods 2026-07-28 removed, called on a client of a 2026-07-28 server. */
describe('legacy-only methods in the 2026-07-28 era', () => {
  it('subscribeResource() and unsubscribeResource() are refused before anything is sent, pointing to listen()', async () => {
    const { client, server } = scripted({ roots: () => [] });
    await Promise.all([client.connect(), discover(server)]);
    for (const call of [() => client.subscribeResource('test://a'), () => client.unsubscribeResource('test://a')]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(McpError);
      expect((error as Error).message).toMatch(/^resources\/(un)?subscribe: 2026-07-28 has no .*client\.listen/);
    }
  });

  it('notifyRootsChanged() resolves and sends nothing: the roots travel with each input answer', async () => {
    const { client, server } = scripted({ roots: () => [] });
    await Promise.all([client.connect(), discover(server)]);
    await expect(client.notifyRootsChanged()).resolves.toBeUndefined();
  });
});
