import { describe, expect, it } from 'vitest';
import { causes, failLoadsOf } from './fail-loads.js';
import { useClients, useHttpServers } from './harness.js';

// A file of its own: once the fallback's module has loaded, every later import gets it
// from the module cache, so its loads can only be failed before anything loads it.

const servers = useHttpServers();
const open = useClients();

describe('the HTTP+SSE fallback, loaded on demand', () => {
  it('fails a connect that must fall back while the fallback module cannot load, and loads it for the next', async () => {
    const url = `${servers.modes}/legacy-sse`;
    const load = failLoadsOf('transport/http/legacy-sse-session.js');
    const refused = await open(url).catch((caught: unknown) => caught);
    load.restore();
    expect(refused).toBeInstanceOf(Error);
    expect(causes(refused)).toContain(load.failure);

    const { client, transport, calls } = await open(url);
    expect(transport.usesLegacySse).toBe(true);
    expect((await client.callTool('echo', { text: 'old' })).text).toBe('old');
    // The second connect fell back as the first one would have: refused initialize, then the event stream.
    expect(calls.filter((call) => call.httpMethod === 'GET').map((call) => call.url.pathname)).toEqual(['/legacy-sse']);
  });
});
