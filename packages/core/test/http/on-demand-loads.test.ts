import { describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../src/index.js';
import { useClients, useHttpServers } from './harness.js';

const servers = useHttpServers();
const open = useClients();

/**
 * Makes imports of one of the transport's on-demand modules fail, as a chunk
 * download that fails does in a browser, until `restore()`. Vitest wraps the
 * error: the call's error has it as its cause.
 */
function failLoadsOf(module: string): { failure: TypeError; restore: () => void } {
  const path = `../../src/transport/http/${module}`;
  const failure = new TypeError('Failed to fetch dynamically imported module');
  vi.doMock(path, () => {
    throw failure;
  });
  return { failure, restore: () => vi.doUnmock(path) };
}

describe('code loaded on demand', () => {
  it('fails a call whose stream resumption cannot load, and loads it again for the next broken stream', async () => {
    const scenario = await servers.scenario({
      inner: 'resumable',
      // The priming event passes, then the stream is cut: twice, for two calls.
      rules: [{ match: { method: 'tools/call', times: 2 }, action: { type: 'drop-sse-after', events: 1 } }],
    });
    const { client } = await open(scenario.mcp, { transport: { standaloneStream: false } });
    const load = failLoadsOf('resume-post-stream.js');
    const first = await client.callTool('echo', { text: 'first' }).catch((caught: unknown) => caught);
    load.restore();
    expect((first as Error).cause).toBe(load.failure);

    expect((await client.callTool('echo', { text: 'second' })).text).toBe('second');
    expect((await scenario.stats()).methods['tools/call']).toBe(2);
  });

  it('fails a call refused with 503 when the retry policy cannot load, and gives the next refusal its HttpError', async () => {
    const scenario = await servers.scenario({
      inner: 'stateful',
      rules: [{ match: { method: 'tools/call', times: 2 }, action: { type: 'status', status: 503, body: 'down' } }],
    });
    const { client } = await open(scenario.mcp, { transport: { standaloneStream: false } });
    const load = failLoadsOf('retry-policy.js');
    const first = await client.callTool('echo', { text: 'first' }).catch((caught: unknown) => caught);
    load.restore();
    expect((first as Error).cause).toBe(load.failure);

    const second = await client.callTool('echo', { text: 'second' }).catch((caught: unknown) => caught);
    expect(second).toBeInstanceOf(HttpError);
    expect(second).toMatchObject({ status: 503, bodyExcerpt: 'down' });
  });
});
