import { describe, expect, it, vi } from 'vitest';
import { NetworkError, StreamableHttpTransport } from '../../../src/index.js';
import { countingFetch } from './counting-fetch.js';
import { useClients, useHttpServers } from './harness.js';
import type { FaultAction } from './test-servers.js';

const servers = useHttpServers();
const open = useClients();

/** Fast backoff; a cap high enough to honour `Retry-After` up to 2 s. */
const retry = { maxRetries: 2, baseDelay: 10, maxDelay: 2500 };

/** A scenario whose first `tools/call` (or other method) meets `action`, and a client on it with retries. */
async function firstCallMeets(action: FaultAction, method = 'tools/call') {
  const scenario = await servers.scenario({ inner: 'stateful', rules: [{ match: { method, times: 1 }, action }] });
  const connected = await open(`${scenario.mcp}?pageSize=100`, { transport: { retry, standaloneStream: false } });
  return { scenario, ...connected };
}

/** Lets real I/O run, the fake clock standing still, until `done()` holds; fails after 5 s of real time. */
async function whileTheClockStands(done: () => boolean): Promise<void> {
  const deadline = performance.now() + 5000;
  while (!done()) {
    if (performance.now() > deadline) throw new Error('not within 5 s with the fake clock standing still');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Moves the fake clock 999 ms and lets real I/O run a while: a wait of a second is not over yet. */
async function justShortOfASecond(): Promise<void> {
  await vi.advanceTimersByTimeAsync(999);
  for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/** `promise`, and whether it has settled yet (a rejection stays for the test to await). */
function settling<T>(promise: Promise<T>): { promise: Promise<T>; readonly settled: boolean } {
  let settled = false;
  promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  return {
    promise,
    get settled() {
      return settled;
    },
  };
}

describe('retried responses', () => {
  it('retries a 503 and the tool runs exactly once', async () => {
    const { scenario, client } = await firstCallMeets({ type: 'status', status: 503 });
    expect((await client.callTool('echo', { text: 'after 503' })).text).toBe('after 503');
    const stats = await scenario.stats();
    expect(stats.methods['tools/call']).toBe(2);
    expect(stats.executions).toBe(1);
  });

  it('waits Retry-After in seconds on 429, then succeeds with one execution', async () => {
    const { scenario, client, calls } = await firstCallMeets({
      type: 'status',
      status: 429,
      headers: { 'retry-after': '1' },
    });
    // The client waits out Retry-After on fake time; the server and the sockets stay real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const later = settling(client.callTool('echo', { text: 'later' }));
      await whileTheClockStands(() => calls.some((call) => call.status === 429));
      await justShortOfASecond();
      expect(later.settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1001);
      await whileTheClockStands(() => later.settled);
      expect((await later.promise).text).toBe('later');
    } finally {
      vi.useRealTimers();
    }
    const stats = await scenario.stats();
    expect(stats.methods['tools/call']).toBe(2);
    expect(stats.executions).toBe(1);
  });

  it('waits Retry-After as an HTTP date on 429, then succeeds with one execution', async () => {
    // HTTP dates have whole seconds: this one is between 1 and 2 s away.
    const date = new Date(Math.floor(Date.now() / 1000) * 1000 + 2000).toUTCString();
    const { scenario, client } = await firstCallMeets({
      type: 'status',
      status: 429,
      headers: { 'retry-after': date },
    });
    const started = performance.now();
    expect((await client.callTool('echo', { text: 'later' })).text).toBe('later');
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
    const stats = await scenario.stats();
    expect(stats.methods['tools/call']).toBe(2);
    expect(stats.executions).toBe(1);
  });

  it('asks the token provider again for every attempt', async () => {
    const scenario = await servers.scenario({
      inner: 'stateful',
      rules: [{ match: { method: 'tools/call', times: 2 }, action: { type: 'status', status: 503 } }],
    });
    let issued = 0;
    const { client } = await open(scenario.mcp, {
      transport: { retry, standaloneStream: false, tokenProvider: () => `token-${++issued}` },
    });
    const before = issued;
    expect((await client.callTool('echo', { text: 'x' })).text).toBe('x');
    expect(issued - before).toBe(3);
    const tokens = (await scenario.stats()).requests
      .filter((request) => request.method === 'tools/call')
      .map((request) => request.headers.authorization);
    expect(tokens).toHaveLength(3);
    expect(new Set(tokens).size).toBe(3);
    expect((await scenario.stats()).executions).toBe(1);
  });
});

describe('network failures', () => {
  it('does not retry tools/call after a reset, which cannot prove the request never arrived', async () => {
    const { scenario, client } = await firstCallMeets({ type: 'reset-before' });
    const error = await client.callTool('echo', { text: 'x' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ delivered: 'unknown' });
    const stats = await scenario.stats();
    expect(stats.methods['tools/call']).toBe(1);
    expect(stats.executions).toBe(0);
  });

  it('retries tools/list after a reset, since listing is safe to repeat', async () => {
    const { scenario, client } = await firstCallMeets({ type: 'reset-before' }, 'tools/list');
    expect(await client.listTools()).toHaveLength(11);
    const stats = await scenario.stats();
    expect(stats.methods['tools/list']).toBe(2);
    expect(stats.executed['tools/list']).toBe(1);
  });

  it('fails tools/call with NetworkError and no second execution when the reset comes after the server ran it', async () => {
    const { scenario, client } = await firstCallMeets({ type: 'reset-after' });
    await expect(client.callTool('echo', { text: 'x' })).rejects.toBeInstanceOf(NetworkError);
    const stats = await scenario.stats();
    expect(stats.methods['tools/call']).toBe(1);
    expect(stats.executions).toBe(1);
  });

  it('retries a refused connection, even for tools/call, then fails with NetworkError (delivered: no)', async () => {
    const counting = countingFetch();
    const transport = new StreamableHttpTransport(servers.refused, { retry, fetch: counting.fetch });
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: {} } } as const;
    const error = await transport.send(message).catch((caught: unknown) => caught);
    await transport.close();
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ delivered: 'no', url: servers.refused });
    expect((error as Error).message).toContain(servers.refused);
    expect(counting.calls).toHaveLength(3);
  });
});

describe('backoff', () => {
  it('does not hold up another call while one waits out Retry-After', async () => {
    const scenario = await servers.scenario({
      inner: 'stateful',
      rules: [
        {
          match: { method: 'tools/call', tool: 'add', times: 1 },
          action: { type: 'status', status: 429, headers: { 'retry-after': '1' } },
        },
      ],
    });
    const { client, calls } = await open(scenario.mcp, { transport: { retry, standaloneStream: false } });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const waiting = settling(client.callTool('add', { a: 1, b: 1 }));
      await whileTheClockStands(() => calls.some((call) => call.status === 429));
      // The other call is answered with the clock standing still, inside the Retry-After second.
      const quick = settling(client.callTool('echo', { text: 'quick' }));
      await whileTheClockStands(() => quick.settled);
      expect((await quick.promise).text).toBe('quick');
      await justShortOfASecond();
      expect(waiting.settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1001);
      await whileTheClockStands(() => waiting.settled);
      await waiting.promise;
    } finally {
      vi.useRealTimers();
    }
    expect((await scenario.stats()).executions).toBe(2);
  });

  it('rejects promptly with AbortError when the call is aborted during backoff', async () => {
    const { scenario, client, calls } = await firstCallMeets({
      type: 'status',
      status: 429,
      headers: { 'retry-after': '1' },
    });
    // The client waits out Retry-After on fake time; the server and the sockets stay real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const controller = new AbortController();
      const call = settling(client.callTool('echo', { text: 'x' }, { signal: controller.signal }));
      await whileTheClockStands(() => calls.some((call) => call.status === 429));
      await vi.advanceTimersByTimeAsync(100);
      controller.abort();
      // With the clock still 900 ms short of the Retry-After: the wait ends with the abort.
      await whileTheClockStands(() => call.settled);
      await expect(call.promise).rejects.toMatchObject({ name: 'AbortError' });
      // Past the Retry-After: the aborted call was not sent again.
      await vi.advanceTimersByTimeAsync(2000);
    } finally {
      vi.useRealTimers();
    }
    const stats = await scenario.stats();
    expect(stats.methods['tools/call']).toBe(1);
    expect(stats.executions).toBe(0);
  });
});
