import { describe, expect, it } from 'vitest';
import { LimitError, type Progress, TransportError } from '../../../src/index.js';
import { useClients, useHttpServers } from './harness.js';

const servers = useHttpServers();
const open = useClients();

/** The GETs that resumed a stream (as opposed to the standalone stream's first GET). */
const resumptions = (requests: readonly { httpMethod: string; headers: Readonly<Record<string, string>> }[]) =>
  requests.filter((request) => request.httpMethod === 'GET' && request.headers['last-event-id'] !== undefined);

describe('resumable POST streams', () => {
  it.each(['end', 'reset'] as const)(
    'completes a call whose SSE stream drops mid-response (%s) via GET + Last-Event-ID, without re-sending the POST',
    async (how) => {
      const scenario = await servers.scenario({
        inner: 'resumable',
        // The priming event and the first progress event pass, then the stream is cut.
        rules: [{ match: { method: 'tools/call' }, action: { type: 'drop-sse-after', events: 2, how } }],
      });
      const { client, errors } = await open(scenario.mcp, { transport: { standaloneStream: false } });
      const progress: Progress[] = [];
      const result = await client.callTool(
        'slow',
        { steps: 3, intervalMs: 20 },
        { onProgress: (step) => progress.push(step) },
      );
      expect(result.text).toBe('done after 3 steps');
      expect(progress.map((step) => step.progress)).toEqual([1, 2, 3]);

      const stats = await scenario.stats();
      expect(stats.methods['tools/call']).toBe(1);
      expect(stats.executions).toBe(1);
      const resumed = resumptions(stats.requests);
      expect(resumed).toHaveLength(1);
      expect(resumed[0]?.headers).toMatchObject({ accept: 'text/event-stream' });
      expect(errors).toEqual([]);
    },
  );

  it('waits the retry: delay the server sent before resuming', async () => {
    const scenario = await servers.scenario({
      inner: 'resumable',
      // Only the priming event (`retry: 100`) passes.
      rules: [{ match: { method: 'tools/call' }, action: { type: 'drop-sse-after', events: 1 } }],
    });
    const { client, calls } = await open(scenario.mcp, { transport: { standaloneStream: false } });
    expect((await client.callTool('echo', { text: 'resumed' })).text).toBe('resumed');

    const post = calls.find((call) => call.rpcMethod === 'tools/call');
    const resume = calls.find((call) => call.httpMethod === 'GET' && call.headers.has('last-event-id'));
    expect(post).toBeDefined();
    expect(resume).toBeDefined();
    expect(resume!.startedAt - post!.startedAt).toBeGreaterThanOrEqual(95);
    expect((await scenario.stats()).executions).toBe(1);
  });

  it('fails only that call with TransportError when its stream ends before the response with no event id to resume from', async () => {
    const scenario = await servers.scenario({
      // The stateful server sends no event ids: nothing to resume from.
      inner: 'stateful',
      rules: [{ match: { method: 'tools/call', times: 1 }, action: { type: 'drop-sse-after', events: 0 } }],
    });
    const { client, calls } = await open(scenario.mcp, { transport: { standaloneStream: false } });
    const error = await client.callTool('echo', { text: 'cut' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toContain('ended before the response');
    expect(calls.filter((call) => call.httpMethod === 'GET')).toEqual([]);
    expect((await client.callTool('echo', { text: 'next' })).text).toBe('next');
  });

  it('fails the call with a LimitError, without resuming, when maxResumeAttempts is 0', async () => {
    const scenario = await servers.scenario({
      inner: 'resumable',
      rules: [{ match: { method: 'tools/call', times: 1 }, action: { type: 'drop-sse-after', events: 1 } }],
    });
    const { client } = await open(scenario.mcp, { transport: { standaloneStream: false, maxResumeAttempts: 0 } });
    const error = await client.callTool('echo', { text: 'cut' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ limit: 'maxResumeAttempts', value: 0 });
    expect((error as Error).message).toContain('ended before the response');
    expect(resumptions((await scenario.stats()).requests)).toEqual([]);
  });
});
