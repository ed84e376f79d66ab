import { describe, expect, it, vi } from 'vitest';
import type { Progress } from '../../src/index.js';
import { connected, scripted, sleep, useScriptedClients } from './harness.js';

useScriptedClients();

const progressTokenOf = (params: Record<string, unknown> | undefined): unknown =>
  (params?._meta as Record<string, unknown> | undefined)?.progressToken;

describe('progress', () => {
  it('sends a unique progressToken in _meta only for calls with onProgress', async () => {
    const { client, server } = await connected();
    const onProgress = () => {};
    const calls = [
      client.callTool('a', {}, { onProgress }),
      client.callTool('b', {}, { onProgress }),
      client.callTool('c'),
    ];
    const requests = [
      await server.expect('tools/call'),
      await server.expect('tools/call'),
      await server.expect('tools/call'),
    ];
    const [a, b, c] = requests.map((request) => request.params);
    expect(progressTokenOf(a)).toBeDefined();
    expect(progressTokenOf(b)).toBeDefined();
    expect(progressTokenOf(a)).not.toEqual(progressTokenOf(b));
    expect(a?.arguments).toEqual({});
    expect(c).toEqual({ name: 'c', arguments: {} });
    for (const request of requests) await server.reply(request.id, { content: [] });
    await Promise.all(calls);
  });

  it('delivers every notifications/progress of the call to onProgress, in order, and no other', async () => {
    const { client, server } = await connected();
    const seen: Progress[] = [];
    const calling = client.callTool('index', {}, { onProgress: (p) => seen.push(p) });
    const request = await server.expect('tools/call');
    const progressToken = progressTokenOf(request.params);
    await server.notify('notifications/progress', { progressToken, progress: 1, total: 3 });
    await server.notify('notifications/progress', { progressToken: 'someone-else', progress: 99 });
    await server.notify('notifications/progress', { progressToken, progress: 2, total: 3, message: 'halfway' });
    await server.notify('notifications/progress', { progressToken, progress: 2.5 });
    await server.reply(request.id, { content: [] });
    await calling;
    expect(seen).toEqual([{ progress: 1, total: 3 }, { progress: 2, total: 3, message: 'halfway' }, { progress: 2.5 }]);
  });

  it('restarts the timeout on progress: a 100 ms call with progress every 60 ms for 300 ms succeeds', async () => {
    const { client, server } = await connected();
    let ticks = 0;
    const calling = client.callTool('long', {}, { timeout: 100, onProgress: () => ticks++ });
    const request = await server.expect('tools/call');
    const progressToken = progressTokenOf(request.params);
    for (let progress = 1; progress <= 5; progress++) {
      await sleep(60);
      await server.notify('notifications/progress', { progressToken, progress });
    }
    await server.reply(request.id, { content: [{ type: 'text', text: 'finally' }] });
    expect((await calling).text).toBe('finally');
    expect(ticks).toBe(5);
  });
});

describe('timeout and abort', () => {
  it('rejects a timed-out call with a TimeoutError DOMException and sends notifications/cancelled with its id', async () => {
    const { client, server } = await connected();
    const outcome = client.callTool('slow', {}, { timeout: 30 }).catch((e: unknown) => e);
    const request = await server.expect('tools/call');
    const cancelled = await server.expect('notifications/cancelled');
    expect(cancelled.params?.requestId).toBe(request.id);
    const error = await outcome;
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('TimeoutError');
  });

  it('rejects an aborted call with AbortError and sends notifications/cancelled with its id', async () => {
    const { client, server } = await connected();
    const controller = new AbortController();
    const outcome = client.callTool('slow', {}, { signal: controller.signal }).catch((e: unknown) => e);
    const request = await server.expect('tools/call');
    controller.abort();
    const cancelled = await server.expect('notifications/cancelled');
    expect(cancelled.params?.requestId).toBe(request.id);
    const error = await outcome;
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
  });

  it('drops a response that arrives after cancellation quietly (onError not called)', async () => {
    const { client, server, errors } = await connected();
    const outcome = client.callTool('slow', {}, { timeout: 20 }).catch((e: unknown) => e);
    const request = await server.expect('tools/call');
    await server.expect('notifications/cancelled');
    expect((await outcome) as DOMException).toHaveProperty('name', 'TimeoutError');
    await server.reply(request.id, { content: [{ type: 'text', text: 'too late' }] });

    const pinging = client.ping();
    const ping = await server.expect('ping');
    await server.reply(ping.id, {});
    await pinging;
    expect(errors).toEqual([]);
  });

  // 2025-03-26 on, basic/lifecycle, Timeouts: a maximum timeout SHOULD hold whatever the progress.
  it('caps a call at 10 minutes by default (ClientOptions.maxTotalTimeout) however often progress restarts its timeout', async () => {
    // Every timer of the client fake from the start: its deadlines share one timer.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const { client, server } = await connected();
      const outcome = client.callTool('endless', {}, { onProgress: () => {} }).catch((e: unknown) => e);
      const request = await server.expect('tools/call');
      const progressToken = progressTokenOf(request.params);
      let settled = false;
      void outcome.then(() => {
        settled = true;
      });
      // Progress every 50 s keeps the 60 s per-call timeout from ever firing.
      for (let progress = 1; progress <= 11; progress++) {
        await vi.advanceTimersByTimeAsync(50_000);
        await server.notify('notifications/progress', { progressToken, progress });
      }
      await vi.advanceTimersByTimeAsync(49_999);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const error = await outcome;
      expect(error).toBeInstanceOf(DOMException);
      expect((error as DOMException).name).toBe('TimeoutError');
      expect((error as DOMException).message).toMatch(/total timeout of 600000 ms/);
      expect((await server.expect('notifications/cancelled')).params?.requestId).toBe(request.id);
    } finally {
      vi.useRealTimers();
    }
  });

  it('never cancels initialize with a notification', async () => {
    const { client, server } = scripted();
    const outcome = client.connect({ timeout: 30 }).catch((e: unknown) => e);
    await server.expectInitialize();
    expect(await outcome).toHaveProperty('name', 'TimeoutError');
    await server.assertNoMessage(50);
  });
});
