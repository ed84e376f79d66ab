import { describe, expect, it } from 'vitest';
import { FLOOD_NOTIFICATIONS, REQUEST_FLOOD } from '../../../../test-servers/hostile/serve.mjs';
import { McpError } from '../../src/index.js';
import { expectHealthy, MiB, peakGrowthDuring, rejection, timed, until } from './checks.js';
import { useHostileClients, useHostileServer } from './hostile-harness.js';

// Floods: 10,000 notifications a second on one call's stream.

const server = useHostileServer();
const open = useHostileClients(server);

describe.each(['legacy', 'modern'] as const)('floods (%s era)', (era) => {
  it(`${FLOOD_NOTIFICATIONS.toLocaleString('en')} notifications at 10,000/s are each handled or reported dropped; other calls answered in < 2 s, memory bounded`, async () => {
    let handled = 0;
    const { client, errors } = await open('notification-flood', {
      era,
      client: {
        limits: { maxConcurrentHandlers: 4 },
        onNotification: (method) => {
          if (method === 'notifications/message') handled++;
        },
      },
    });
    const { value, peak } = await peakGrowthDuring(async () => {
      const flood = client.callTool('hostile');
      const latencies: number[] = [];
      // Healthy calls while the flood runs: each must come back quickly.
      for (let call = 0; call < 5; call++) {
        latencies.push((await timed(() => expectHealthy(client))).ms);
      }
      return { result: await flood, latencies };
    });
    expect(value.result.text).toBe('flood over');
    expect(Math.max(...value.latencies)).toBeLessThan(2000);
    const dropped = errors.filter(
      (error) => error instanceof McpError && /dropped notifications\/message/.test(error.message),
    );
    expect(errors.length - dropped.length).toBe(0);
    expect(handled + dropped.length).toBe(FLOOD_NOTIFICATIONS);
    expect(peak).toBeLessThan(64 * MiB);
    await expectHealthy(client);
  });

  it('progress every 50 ms, forever, cannot keep a call alive past maxTotalTimeout (1 s here): TimeoutError, and the next call works', async () => {
    const { client, endpoint } = await open('progress-forever', { era });
    let reports = 0;
    const { value: error, ms } = await timed(() =>
      rejection(client.callTool('hostile', {}, { timeout: 200, maxTotalTimeout: 1000, onProgress: () => reports++ })),
    );
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('TimeoutError');
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(3000);
    expect(reports).toBeGreaterThan(5);
    await until(() => endpoint.stats.clientGone === 1, 2000, 'the client leaves the endless stream');
    await expectHealthy(client);
  });

  // 2025-03-26 on, basic/lifecycle, Timeouts: a maximum timeout SHOULD hold whatever the progress.
  it('progress every 50 ms, forever, on a call with no cap of its own is ended by the client-wide maxTotalTimeout (0.5 s here) with TimeoutError; the server sees the cancellation, the next call works', async () => {
    const { client, endpoint } = await open('progress-forever', { era, client: { maxTotalTimeout: 500 } });
    let reports = 0;
    const { value: error, ms } = await timed(() =>
      rejection(client.callTool('hostile', {}, { onProgress: () => reports++ })),
    );
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('TimeoutError');
    expect((error as DOMException).message).toMatch(/total timeout of 500 ms/);
    expect(ms).toBeGreaterThanOrEqual(450);
    expect(ms).toBeLessThan(2500);
    expect(reports).toBeGreaterThan(3);
    await until(() => endpoint.stats.clientGone === 1, 2000, 'the client leaves the endless stream');
    // Legacy: notifications/cancelled. 2026-07-28 over HTTP cancels by closing the stream, which it just did.
    const cancels = () => endpoint.stats.requests.filter((request) => request.rpcMethod === 'notifications/cancelled');
    if (era === 'legacy') await until(() => cancels().length === 1, 2000, 'the server is sent notifications/cancelled');
    else expect(cancels()).toEqual([]);
    await expectHealthy(client);
  });

  it("a call's own maxTotalTimeout is used instead of the client's: 1.5 s instead of 0.5 s, and 0 means no cap at all", async () => {
    const { client } = await open('progress-forever', { era, client: { maxTotalTimeout: 500 } });
    const longer = await timed(() =>
      rejection(client.callTool('hostile', {}, { maxTotalTimeout: 1500, onProgress: () => {} })),
    );
    expect((longer.value as DOMException).name).toBe('TimeoutError');
    expect((longer.value as DOMException).message).toMatch(/total timeout of 1500 ms/);
    expect(longer.ms).toBeGreaterThanOrEqual(1400);
    expect(longer.ms).toBeLessThan(3500);
    // No cap: only the caller ends it, well past the client's 0.5 s.
    const stop = new AbortController();
    const uncapped = client.callTool('hostile', {}, { maxTotalTimeout: 0, signal: stop.signal, onProgress: () => {} });
    setTimeout(() => stop.abort(new Error('caller gave up')), 1200);
    const { value: error, ms } = await timed(() => rejection(uncapped));
    expect((error as Error).message).toBe('caller gave up');
    expect(ms).toBeGreaterThanOrEqual(1100);
    await expectHealthy(client);
  });
});

// Found by this suite: the Client called onNotification without keeping what it returned,
// so the dispatch slot freed at once and 700 async handlers ran at once with a limit of 4.
describe('floods (legacy era, async handler)', () => {
  it('an async onNotification runs at most maxConcurrentHandlers (4 here) at once under 10,000/s', async () => {
    let running = 0;
    let most = 0;
    const { client } = await open('notification-flood', {
      client: {
        limits: { maxConcurrentHandlers: 4 },
        onNotification: async () => {
          most = Math.max(most, ++running);
          await new Promise((resolve) => setTimeout(resolve, 20));
          running--;
        },
      },
    });
    expect((await client.callTool('hostile')).text).toBe('flood over');
    // Each handler waits 20 ms while 100 arrive every 10 ms: all four slots fill, and no more.
    expect(most).toBe(4);
  });
});

describe('floods (legacy era, GET stream)', () => {
  it(`${FLOOD_NOTIFICATIONS.toLocaleString('en')} notifications at 10,000/s are each handled or reported dropped; calls answered in < 2 s meanwhile`, async () => {
    let handled = 0;
    const { client, errors } = await open('get-flood', {
      client: {
        limits: { maxConcurrentHandlers: 4 },
        onNotification: (method) => {
          if (method === 'notifications/message') handled++;
        },
      },
    });
    for (let call = 0; call < 5; call++) {
      expect((await timed(() => expectHealthy(client))).ms).toBeLessThan(2000);
    }
    const dropped = () => errors.filter((error) => /dropped notifications\/message/.test(error.message)).length;
    await until(() => handled + dropped() === FLOOD_NOTIFICATIONS, 5000, 'every notification handled or reported');
    expect(errors.length - dropped()).toBe(0);
    await expectHealthy(client);
  });

  it(`${REQUEST_FLOOD.toLocaleString('en')} ping requests at once are each answered (result or busy error), with calls answered in < 2 s meanwhile`, async () => {
    const { client } = await open('request-flood', { client: { limits: { maxConcurrentHandlers: 4 } } });
    const flood = client.callTool('hostile');
    for (let call = 0; call < 3; call++) {
      expect((await timed(() => expectHealthy(client))).ms).toBeLessThan(2000);
    }
    expect((await flood).text).toBe(String(REQUEST_FLOOD));
    await expectHealthy(client);
  });

  // Found by this suite (util/linked-signal.ts): every reply to a server request
  // is a send without a per-call signal, linked to the transport's long-lived signal while
  // it runs; a burst of more than 10 made Node print a MaxListenersExceededWarning. The
  // links now hang off one listener on that signal.
  it('1,000 ping requests at once make Node print no MaxListenersExceededWarning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const { client } = await open('request-flood', { client: { limits: { maxConcurrentHandlers: 4 } } });
      expect((await client.callTool('hostile')).text).toBe(String(REQUEST_FLOOD));
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
  });
});
