import { describe, expect, it } from 'vitest';
import { causes, failLoadsOf } from './fail-loads.js';
import { useClients, useHttpServers } from './harness.js';

// A file of its own: recovery/ imports event-stream/, so a test that loads the
// one has loaded the other, and its loads could no longer be made to fail.

const servers = useHttpServers();
const open = useClients();

describe('the event-stream module, loaded on demand', () => {
  it('fails a call whose SSE answer cannot be read while the event-stream module cannot load, and reads the next', async () => {
    // A server that answers JSON, but SSE (one event: a result padded with x) to two calls.
    const scenario = await servers.scenario({
      inner: 'stateless',
      rules: [{ match: { tool: 'echo', times: 2 }, action: { type: 'oversized', bytes: 300, as: 'sse' } }],
    });
    const { client } = await open(scenario.mcp, { transport: { standaloneStream: false } });
    const load = failLoadsOf('transport/http/event-stream/index.js');
    const first = await client.callTool('echo', { text: 'first' }).catch((caught: unknown) => caught);
    load.restore();
    // The stream could not be read, nor resumed (recovery/ imports event-stream/): the call fails, caused by the load.
    expect(first).toBeInstanceOf(Error);
    expect(causes(first)).toContain(load.failure);
    expect((await client.callTool('echo', { text: 'second' })).text).toMatch(/^x+$/);
  });
});
