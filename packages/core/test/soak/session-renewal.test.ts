import { describe, expect, it } from 'vitest';
import { type CallOptions, HttpError, SessionExpiredError } from '../../src/index.js';
import { until, useClients, useHttpServers } from '../transport/http/harness.js';
import type { FaultRule, SeenRequest } from '../transport/http/test-servers.js';

const servers = useHttpServers();
const open = useClients();

/** Calls that reached the server without `Mcp-Session-Id` (a stateful server refuses them with 400). */
const sessionless = (requests: readonly SeenRequest[]) =>
  requests.filter((request) => request.method === 'tools/call' && request.headers['mcp-session-id'] === undefined);

/** A client (no GET stream) whose first tools/call finds the session expired; `renewal` acts on what follows. */
async function expiring(...renewal: FaultRule[]) {
  const scenario = await servers.scenario({
    inner: 'stateful',
    rules: [{ match: { method: 'tools/call', times: 1 }, action: { type: 'expire-session' } }, ...renewal],
  });
  const { client } = await open(scenario.mcp, { transport: { standaloneStream: false } });
  return { scenario, client };
}

/** A call whose session expired, once the renewal's `initialize` is held up for `ms` at the server. */
async function renewalUnderWay(ms: number, options?: CallOptions) {
  const { scenario, client } = await expiring({
    match: { method: 'initialize', nth: 2 },
    action: { type: 'stall', ms },
  });
  const expired = client.callTool('echo', { text: 'expired' }, options);
  await until(async () => (await scenario.stats()).rules[1]?.applied === 1);
  return { scenario, client, expired };
}

/** The renewal's `initialize` is reset, `times` renewals in a row. */
const failedRenewals = (times = 1): FaultRule[] =>
  Array.from({ length: times }, (_, index) => ({
    match: { method: 'initialize', nth: index + 2 },
    action: { type: 'reset-before' },
  }));

describe('a call made while an expired session is being renewed (found by the soak)', () => {
  // A call started before the new `initialize` is answered used to go out with
  // no Mcp-Session-Id, and a stateful server refuses that (2025-11-25, Session
  // Management: every request after the handshake carries the id): HttpError
  // 400 where it would have succeeded a moment later.
  it('waits for the new session instead of going out without one', async () => {
    // The renewal's handshake takes a moment, as it may on a real network.
    const { scenario, client, expired } = await renewalUnderWay(300);
    const during = client.callTool('add', { a: 1, b: 2 });
    const [first, second] = await Promise.allSettled([expired, during]);
    expect(first).toMatchObject({ status: 'fulfilled', value: { text: 'expired' } });
    expect(second).toMatchObject({ status: 'fulfilled', value: { structuredContent: { sum: 3 } } });

    const stats = await scenario.stats();
    expect(sessionless(stats.requests)).toEqual([]);
    expect(stats.methods.initialize).toBe(2);
  });

  it('a call waiting for the renewal gives up at its own timeout, and the renewal goes on for the others', async () => {
    const { scenario, client, expired } = await renewalUnderWay(1500);
    const started = performance.now();
    const impatient = await client.callTool('add', { a: 1, b: 2 }, { timeout: 100 }).catch((error: unknown) => error);
    expect(impatient).toMatchObject({ name: 'TimeoutError' });
    // Its own 100 ms, not the 1.5 s the renewal takes.
    expect(performance.now() - started).toBeLessThan(1000);
    expect((await expired).text).toBe('expired');
    expect((await client.callTool('add', { a: 2, b: 3 })).structuredContent).toEqual({ sum: 5 });

    const stats = await scenario.stats();
    expect(sessionless(stats.requests)).toEqual([]);
    expect(stats.methods.initialize).toBe(2);
  });

  it('an aborted call that started the renewal leaves it to the calls still waiting', async () => {
    const controller = new AbortController();
    const { scenario, client, expired } = await renewalUnderWay(300, { signal: controller.signal });
    const during = client.callTool('add', { a: 1, b: 2 });
    controller.abort(new DOMException('the user went away', 'AbortError'));
    await expect(expired).rejects.toMatchObject({ name: 'AbortError' });
    expect((await during).structuredContent).toEqual({ sum: 3 });
    expect((await scenario.stats()).methods.initialize).toBe(2);
  });
});

describe('a session renewal that fails (found by the soak)', () => {
  // The transport used to be left with no session and no renewal pending: every
  // later call went out without Mcp-Session-Id and failed with HttpError 400,
  // never with the 404 that would renew, so the client never recovered.
  it('a failed renewal does not leave every later call without a session', async () => {
    const { scenario, client } = await expiring(...failedRenewals());
    await expect(client.callTool('echo', { text: 'expired' })).rejects.toThrow();
    expect((await client.callTool('echo', { text: 'later' })).text).toBe('later');
    expect((await client.callTool('echo', { text: 'and later' })).text).toBe('and later');
    const stats = await scenario.stats();
    expect(sessionless(stats.requests)).toEqual([]);
    expect(stats.methods.initialize).toBe(3);
  });

  it('calls made after a failed renewal share one new renewal', async () => {
    const { scenario, client } = await expiring(...failedRenewals());
    await expect(client.callTool('echo', { text: 'expired' })).rejects.toThrow();
    const texts = await Promise.all(
      ['a', 'b', 'c', 'd'].map(async (text) => (await client.callTool('echo', { text })).text),
    );
    expect(texts).toEqual(['a', 'b', 'c', 'd']);
    expect((await scenario.stats()).methods.initialize).toBe(3);
  });

  it('renewals that keep failing cost each call one attempt, never a loop, and the first that succeeds heals the client', async () => {
    const { scenario, client } = await expiring(...failedRenewals(3));
    for (const text of ['expired', 'second', 'third']) {
      const error = await client.callTool('echo', { text }).catch((caught: unknown) => caught);
      // The renewal's own failure (a reset), not a 400 for a call without a session.
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(HttpError);
    }
    expect((await scenario.stats()).methods.initialize).toBe(4);
    expect((await client.callTool('echo', { text: 'healed' })).text).toBe('healed');

    const stats = await scenario.stats();
    expect(stats.methods.initialize).toBe(5);
    // Only the first call reached the server before the session was renewed.
    expect(stats.methods['tools/call']).toBe(2);
    expect(sessionless(stats.requests)).toEqual([]);
  });
});

describe('a session renewal the server never finishes', () => {
  it('fails at the request timeout, and the next call renews again', async () => {
    const scenario = await servers.scenario({
      inner: 'stateful',
      rules: [
        { match: { method: 'tools/call', times: 1 }, action: { type: 'expire-session' } },
        // The renewal's initialize is answered, its notifications/initialized never.
        { match: { method: 'notifications/initialized', nth: 2 }, action: { type: 'stall' } },
      ],
    });
    const { client } = await open(scenario.mcp, {
      transport: { standaloneStream: false },
      client: { requestTimeout: 300 },
    });
    const started = performance.now();
    // The call would wait 5 s; the renewal gets the client's requestTimeout in all.
    const error = await client
      .callTool('echo', { text: 'expired' }, { timeout: 5000 })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'TimeoutError', message: expect.stringContaining('session renewal') });
    expect(performance.now() - started).toBeLessThan(2000);
    expect((await client.callTool('echo', { text: 'later' })).text).toBe('later');

    const stats = await scenario.stats();
    expect(stats.methods.initialize).toBe(3);
    expect(sessionless(stats.requests)).toEqual([]);
    // Each opens a new session: none carries the id the unfinished renewal was given.
    const initializes = stats.requests.filter((request) => request.method === 'initialize');
    expect(initializes.map((request) => request.headers['mcp-session-id'])).toEqual([undefined, undefined, undefined]);
  });
});

describe('a session that ends outside a POST (the soak saw HttpError 404 "Session not found")', () => {
  it('a 404 to the resumption of a dropped stream fails that call with SessionExpiredError, does not run it again, and the next call renews', async () => {
    const scenario = await servers.scenario({
      inner: 'resumable',
      rules: [
        // The priming event passes, then the stream is cut; its resumption finds the session gone.
        { match: { method: 'tools/call', times: 1 }, action: { type: 'drop-sse-after', events: 1 } },
        { match: { httpMethod: 'GET', times: 1 }, action: { type: 'expire-session' } },
      ],
    });
    const { client, transport } = await open(scenario.mcp, { transport: { standaloneStream: false } });
    const error = await client.callTool('echo', { text: 'cut' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SessionExpiredError);
    expect(error).toMatchObject({ delivered: true });
    expect(transport.sessionId).toBeUndefined();
    // The server had taken it: sent again, it might have run twice.
    expect((await scenario.stats()).methods['tools/call']).toBe(1);

    expect((await client.callTool('echo', { text: 'next' })).text).toBe('next');
    const stats = await scenario.stats();
    expect(stats.methods.initialize).toBe(2);
    expect(sessionless(stats.requests)).toEqual([]);
  });

  it('still resumes the dropped stream of the initialize that renews a session, in the session it opened', async () => {
    const scenario = await servers.scenario({
      inner: 'resumable',
      rules: [
        { match: { method: 'tools/call', times: 1 }, action: { type: 'expire-session' } },
        { match: { method: 'initialize', nth: 2 }, action: { type: 'drop-sse-after', events: 1 } },
      ],
    });
    const { client, transport } = await open(scenario.mcp, { transport: { standaloneStream: false } });
    expect((await client.callTool('echo', { text: 'renewed' })).text).toBe('renewed');
    const stats = await scenario.stats();
    expect(stats.rules[1]?.applied).toBe(1);
    expect(stats.methods.initialize).toBe(2);
    const resumed = stats.requests.filter((request) => request.headers['last-event-id'] !== undefined);
    expect(resumed.map((request) => request.headers['mcp-session-id'])).toEqual([transport.sessionId]);
  });

  it('a 404 on the standalone GET stream makes the next call renew the session instead of going out without one', async () => {
    const scenario = await servers.scenario({
      inner: 'stateful',
      rules: [{ match: { httpMethod: 'GET', times: 1 }, action: { type: 'expire-session' } }],
    });
    const { client, transport, errors } = await open(scenario.mcp);
    await until(() => transport.sessionId === undefined);
    expect((await client.callTool('echo', { text: 'after' })).text).toBe('after');
    expect((await client.callTool('echo', { text: 'and after' })).text).toBe('and after');

    const stats = await scenario.stats();
    expect(stats.methods.initialize).toBe(2);
    expect(sessionless(stats.requests)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
