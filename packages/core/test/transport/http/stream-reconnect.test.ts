import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { LimitError, TransportError } from '../../../src/index.js';
import type { FetchCall } from './counting-fetch.js';
import { until, useClients, useHttpServers } from './harness.js';
import type { FaultScript } from './test-servers.js';

const servers = useHttpServers();
const open = useClients();

/** A server whose every GET stream is `sse` and then ends at once. */
const getStreamIs = (sse: string): FaultScript => ({
  inner: 'stateful',
  rules: [
    {
      match: { httpMethod: 'GET' },
      action: { type: 'status', status: 200, headers: { 'content-type': 'text/event-stream' }, body: sse },
    },
  ],
});

const gets = (calls: readonly FetchCall[]) => calls.filter((call) => call.httpMethod === 'GET');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The most abort listeners any signal the transport handed to `fetch` holds now. */
const mostListeners = (calls: readonly FetchCall[]) =>
  Math.max(...calls.map((call) => (call.signal ? getEventListeners(call.signal, 'abort').length : 0)));

describe('reopening the GET stream', () => {
  it('reopens a stream that says retry: 0 and ends at once no sooner than 1 s apart', async () => {
    const { client, calls } = await open((await servers.scenario(getStreamIs('retry: 0\n\n'))).mcp);
    await until(() => gets(calls).length > 0);
    await pause(2000);
    // GETs at 0 s, after 1 s and more, after 2 s and more: not one per millisecond.
    const opened = gets(calls).map((call) => call.startedAt);
    expect(opened.length).toBeGreaterThanOrEqual(2);
    expect(opened.length).toBeLessThanOrEqual(3);
    for (let n = 1; n < opened.length; n++) expect(opened[n]! - opened[n - 1]!).toBeGreaterThanOrEqual(950);
    expect((await client.callTool('echo', { text: 'unbothered' })).text).toBe('unbothered');
  });

  it('waits out a retry: past what a timer holds instead of reopening at once', async () => {
    const { calls } = await open((await servers.scenario(getStreamIs('id: e1\nretry: 99999999999\ndata:\n\n'))).mcp);
    await until(() => gets(calls).length > 0);
    await pause(500);
    expect(gets(calls)).toHaveLength(1);
  });

  it('gives the stream up with a LimitError, caused by the last failure, after maxFailures empty streams in a row', async () => {
    const { client, calls, errors } = await open((await servers.scenario(getStreamIs(': nothing\n\n'))).mcp, {
      transport: { streamReconnect: { minDelay: 20, maxFailures: 3 } },
    });
    await until(() => errors.length > 0);
    const [gaveUp] = errors;
    expect(gaveUp).toBeInstanceOf(LimitError);
    expect(gaveUp).toMatchObject({ limit: 'streamReconnect.maxFailures', value: 3 });
    expect(gaveUp?.cause).toBeInstanceOf(TransportError);
    expect(String(gaveUp?.cause)).toContain('ended without an event');
    await pause(500);
    expect(gets(calls)).toHaveLength(3);
    expect((await client.callTool('echo', { text: 'still fine' })).text).toBe('still fine');
  });

  it('keeps reopening a stream that brings an event each time, leaving no abort listener behind', async () => {
    const { calls, errors } = await open((await servers.scenario(getStreamIs('id: e1\nretry: 0\ndata:\n\n'))).mcp, {
      transport: { streamReconnect: { minDelay: 10, maxFailures: 3 } },
    });
    await until(() => gets(calls).length >= 30, 5000);
    // The stream's own signal holds fetch's for the first GET, the current opening's
    // link and the wait's: a few, whatever the number of openings (was one per opening).
    expect(mostListeners(gets(calls))).toBeLessThanOrEqual(3);
    expect(errors).toEqual([]);
  });
});

describe('sends without a per-call signal', () => {
  it('leave no abort listener behind on the signal that bounds them', async () => {
    const scenario = await servers.scenario({ inner: 'stateful' });
    const { transport, calls } = await open(scenario.mcp, { transport: { standaloneStream: false } });
    for (let i = 0; i < 40; i++) {
      await transport.send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
    }
    const notifications = calls.filter((call) => call.rpcMethod === 'notifications/roots/list_changed');
    expect(notifications).toHaveLength(40);
    expect(mostListeners(notifications)).toBeLessThanOrEqual(2);
  });
});
