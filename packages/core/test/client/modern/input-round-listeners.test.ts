import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DispatchPool } from '../../../src/client/answering/dispatch-pool.js';
import { retryParams } from '../../../src/client/answering/input-requests.js';
import { RpcChannel } from '../../../src/client/rpc/rpc-channel.js';
import { MemoryTransport } from '../../../src/index.js';
import { hubUrl, useClients, useHttpServers } from './modern-harness.js';

const servers = useHttpServers();
const open = useClients();

// The client's channel and dispatch pool live as long as the client, and every
// input round ends with the channel: a listener per round on a long-lived signal
// made Node warn of a leak.
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

  it('a round whose call was aborted before it began runs no handler and fails with the reason', async () => {
    const [clientEnd] = MemoryTransport.createPair();
    const channel = new RpcChannel(
      clientEnd,
      { onRequest: async () => ({}), onNotification: () => {}, onError: () => {}, drain: () => undefined },
      { requestTimeout: 1000, maxTotalTimeout: 0, closeGrace: 0 },
    );
    const stop = new AbortController();
    stop.abort(new DOMException('the user went away', 'AbortError'));
    const input = { resultType: 'input_required', inputRequests: { name: { method: 'elicitation/create' } } } as const;
    let answered = 0;
    const answer = async () => {
      answered++;
      return {};
    };
    const round = {
      answer,
      pool: new DispatchPool(4),
      maxInputRequests: 16,
      run: <T>(work: (signal: AbortSignal) => Promise<T>) => channel.run('tools/call', { signal: stop.signal }, work),
    };
    await expect(retryParams('tools/call', input, round)).rejects.toMatchObject({ name: 'AbortError' });
    expect(answered).toBe(0);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
    await channel.close();
  });
});
