import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DispatchPool } from '../../src/client/dispatch-pool.js';
import { retryParams } from '../../src/client/input-requests.js';
import { hubUrl, useClients, useHttpServers } from './modern-harness.js';

const servers = useHttpServers();
const open = useClients();

// The client's dispatch pool lives as long as the client, and every input round
// follows its `ended` signal: a listener per round on it made Node warn of a leak.
describe('input rounds and the long-lived pool signal', () => {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  beforeEach(() => {
    warnings.length = 0;
    process.on('warning', onWarning);
  });
  afterEach(() => {
    process.off('warning', onWarning);
  });

  it('20 calls answering input at once all complete, and Node prints no MaxListenersExceededWarning', async () => {
    const calls = 20;
    let waiting = 0;
    let allWaiting: () => void = () => {};
    const together = new Promise<void>((resolve) => {
      allWaiting = resolve;
    });
    const { client } = await open(hubUrl(servers.modes, 'mrtr'), {
      client: {
        limits: { maxConcurrentHandlers: calls },
        // Every round stays open until all of them are: 20 rounds at once.
        elicitation: async () => {
          if (++waiting === calls) allWaiting();
          await together;
          return { action: 'accept', content: { name: 'Ada' } };
        },
      },
    });
    const results = await Promise.all(Array.from({ length: calls }, () => client.callTool('elicit')));
    expect(results.map((result) => JSON.parse(result.text).action)).toEqual(Array(calls).fill('accept'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  it('a round whose call was aborted before it began adds no listener to the pool and fails with the reason', async () => {
    const pool = new DispatchPool(4);
    const stop = new AbortController();
    stop.abort(new DOMException('the user went away', 'AbortError'));
    const input = { resultType: 'input_required', inputRequests: { name: { method: 'elicitation/create' } } } as const;
    let answered = 0;
    const answer = async () => {
      answered++;
      return {};
    };
    const round = { pool, signal: stop.signal, timeout: 0, maxInputRequests: 16 };
    await expect(retryParams(answer, 'tools/call', input, round)).rejects.toMatchObject({ name: 'AbortError' });
    expect(answered).toBe(0);
    expect(getEventListeners(pool.ended, 'abort')).toHaveLength(0);
  });
});
