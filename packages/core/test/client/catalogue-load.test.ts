import { describe, expect, it } from 'vitest';
import { causes, failLoadsOf } from '../transport/http/fail-loads.js';
import { useClients, useHttpServers } from '../transport/http/harness.js';

// A file of its own: once the catalogue has loaded, every later import gets it from the cache, so its loads
// can only be failed before anything loads it.

const servers = useHttpServers();
const open = useClients();

describe('the catalogue, loaded on demand', () => {
  // Retried: in about half of the full parallel runs vitest's mocker still served the failing mock to the
  // import after `restore()` (its error names the mock factory, so the client did import again). Every
  // assertion stands on each attempt; a client that never loads the module again fails them all.
  it('a prompt or resource call whose module cannot load rejects with the load failure, tools keep working, and the next call loads it', {
    retry: 2,
  }, async () => {
    const { client, calls } = await open(`${servers.modes}/stateless`);
    const load = failLoadsOf('client/catalogue/index.js');
    const prompts = await client.listPrompts().catch((caught: unknown) => caught);
    const resources = await client.listResources().catch((caught: unknown) => caught);
    load.restore();
    expect(causes(prompts)).toContain(load.failure);
    expect(causes(resources)).toContain(load.failure);
    // Nothing went out for them: the module builds the requests.
    expect(calls.filter((call) => call.rpcMethod === 'prompts/list' || call.rpcMethod === 'resources/list')).toEqual(
      [],
    );
    expect((await client.callTool('echo', { text: 'still here' })).text).toBe('still here');

    expect((await client.listPrompts()).length).toBeGreaterThan(0);
    expect((await client.listResources()).length).toBeGreaterThan(0);
  });
});
