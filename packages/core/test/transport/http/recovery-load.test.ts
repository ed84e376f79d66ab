import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/index.js';
import { failLoadsOf } from './fail-loads.js';
import { useClients, useHttpServers } from './harness.js';

const servers = useHttpServers();
const open = useClients();

describe('the recovery module, loaded on demand', () => {
  it('fails each call that needs the recovery module while it cannot load, and loads it for the next', async () => {
    const scenario = await servers.scenario({
      inner: 'resumable',
      rules: [
        // The priming event passes, then the stream is cut: twice, for two calls.
        { match: { tool: 'echo', times: 2 }, action: { type: 'drop-sse-after', events: 1 } },
        { match: { tool: 'add', times: 2 }, action: { type: 'status', status: 503, body: 'down' } },
      ],
    });
    const { client } = await open(scenario.mcp, { transport: { standaloneStream: false } });
    // Resuming a broken stream and the retry policy after a 503 both live in recovery/.
    const load = failLoadsOf('transport/http/recovery/index.js');
    const cut = await client.callTool('echo', { text: 'first' }).catch((caught: unknown) => caught);
    const refused = await client.callTool('add', { a: 1, b: 2 }).catch((caught: unknown) => caught);
    load.restore();
    expect((cut as Error).cause).toBe(load.failure);
    expect((refused as Error).cause).toBe(load.failure);

    expect((await client.callTool('echo', { text: 'second' })).text).toBe('second');
    const second = await client.callTool('add', { a: 1, b: 2 }).catch((caught: unknown) => caught);
    expect(second).toBeInstanceOf(HttpError);
    expect(second).toMatchObject({ status: 503, bodyExcerpt: 'down' });
    // Nothing was sent twice: the broken call's stream was resumed, not its request resent.
    expect((await scenario.stats()).methods['tools/call']).toBe(4);
  });
});
