import { describe, expect, it } from 'vitest';
import type { SessionSnapshot } from '../../../src/index.js';
import { openStandaloneGet, PROBE, until, useClients, useHttpServers } from './harness.js';
import type { FaultRule, SeenRequest } from './test-servers.js';

const servers = useHttpServers();
const open = useClients();

/** `"POST tools/call"`, `"GET"`: how a request reads in a failure message. */
const label = (request: SeenRequest): string => `${request.httpMethod}${request.method ? ` ${request.method}` : ''}`;

/** The requests from the first `initialize` on (the era probe before it is not part of the session). */
function fromInitialize(requests: readonly SeenRequest[]): SeenRequest[] {
  const start = requests.findIndex((request) => request.method === 'initialize');
  expect(start).toBeGreaterThanOrEqual(0);
  return requests.slice(start);
}

describe('Mcp-Session-Id', () => {
  it('captures the session id from initialize and echoes it on every later request', async () => {
    const scenario = await servers.scenario({ inner: 'stateful' });
    const { client, transport, calls } = await open(scenario.mcp);
    await client.listTools();
    await client.callTool('echo', { text: 'x' });
    await until(() => openStandaloneGet(calls));
    const sessionId = transport.sessionId;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await client.close();

    const [initialize, ...later] = fromInitialize((await scenario.stats()).requests);
    expect(initialize?.headers['mcp-session-id']).toBeUndefined();
    expect(new Set(later.map((request) => request.httpMethod))).toEqual(new Set(['POST', 'GET', 'DELETE']));
    expect(later.map((request) => [label(request), request.headers['mcp-session-id']])).toEqual(
      later.map((request) => [label(request), sessionId]),
    );
  });
});

describe('MCP-Protocol-Version', () => {
  it('sends the negotiated version on every request after initialize, and not on initialize', async () => {
    const scenario = await servers.scenario({ inner: 'stateful' });
    const { client, calls } = await open(scenario.mcp);
    expect(client.protocolVersion).toBe('2025-11-25');
    await client.callTool('echo', { text: 'x' });
    await until(() => openStandaloneGet(calls));
    await client.close();

    const [initialize, ...later] = fromInitialize((await scenario.stats()).requests);
    expect(initialize?.headers['mcp-protocol-version']).toBeUndefined();
    expect(later.map((request) => [label(request), request.headers['mcp-protocol-version']])).toEqual(
      later.map((request) => [label(request), '2025-11-25']),
    );
  });

  it('sends no MCP-Protocol-Version on a 2025-03-26 session, which predates the header', async () => {
    const scenario = await servers.scenario({ inner: 'stateful' });
    const { client } = await open(scenario.mcp, { client: { protocolVersion: '2025-03-26' } });
    expect(client.protocolVersion).toBe('2025-03-26');
    await client.callTool('echo', { text: 'x' });
    await client.close();
    const { requests } = await scenario.stats();
    expect(requests.filter((request) => request.headers['mcp-protocol-version'] !== undefined)).toEqual([]);
  });
});

describe('session expiry', () => {
  const expireFirstCall = { match: { method: 'tools/call', times: 1 }, action: { type: 'expire-session' } } as const;

  it('re-initializes once, transparently, when a request with the session id gets 404', async () => {
    const scenario = await servers.scenario({ inner: 'stateful', rules: [expireFirstCall] });
    const { client, transport } = await open(scenario.mcp);
    const expired = transport.sessionId;
    const result = await client.callTool('echo', { text: 'after expiry' });
    expect(result.text).toBe('after expiry');

    const stats = await scenario.stats();
    expect(stats.methods.initialize).toBe(2);
    expect(stats.executions).toBe(1);
    const renewed = transport.sessionId;
    expect(renewed).toBeDefined();
    expect(renewed).not.toBe(expired);
    const toolCalls = stats.requests.filter((request) => request.method === 'tools/call');
    expect(toolCalls.map((request) => request.headers['mcp-session-id'])).toEqual([expired, renewed]);
    const initializes = stats.requests.filter((request) => request.method === 'initialize');
    expect(initializes.map((request) => request.headers['mcp-session-id'])).toEqual([undefined, undefined]);
  });

  it('sends no MCP-Protocol-Version on the initialize that renews an expired session', async () => {
    const scenario = await servers.scenario({ inner: 'stateful', rules: [expireFirstCall] });
    const { client } = await open(scenario.mcp);
    await client.callTool('echo', { text: 'x' });
    const initializes = (await scenario.stats()).requests.filter((request) => request.method === 'initialize');
    expect(initializes).toHaveLength(2);
    expect(initializes.map((request) => request.headers['mcp-protocol-version'])).toEqual([undefined, undefined]);
  });

  it('shares one initialize among concurrent calls that hit the expiry', async () => {
    const scenario = await servers.scenario({ inner: 'stateful', rules: [expireFirstCall] });
    const { client } = await open(scenario.mcp);
    const texts = await Promise.all(
      ['a', 'b', 'c'].map(async (text) => (await client.callTool('echo', { text })).text),
    );
    expect(texts).toEqual(['a', 'b', 'c']);
    const stats = await scenario.stats();
    expect(stats.methods.initialize).toBe(2);
    expect(stats.executions).toBe(3);
  });

  it('subscribes the renewed session again to the resources still subscribed, before the resend', async () => {
    const scenario = await servers.scenario({ inner: 'stateful', rules: [expireFirstCall] });
    const updated: unknown[] = [];
    const onNotification = (method: string, params: unknown) => {
      if (method === 'notifications/resources/updated') updated.push((params as { uri?: unknown }).uri);
    };
    const { client, transport } = await open(scenario.mcp, { client: { onNotification } });
    await client.subscribeResource('test://static/text/1');
    await client.subscribeResource('test://static/text/2');
    await client.unsubscribeResource('test://static/text/2');
    const expired = transport.sessionId;
    expect((await client.callTool('echo', { text: 'x' })).text).toBe('x');
    const renewed = transport.sessionId;
    expect(renewed).not.toBe(expired);
    const inRenewed = (await scenario.stats()).requests.filter(
      (request) => request.method !== undefined && request.headers['mcp-session-id'] === renewed,
    );
    expect(inRenewed.map((request) => request.method)).toEqual([
      'notifications/initialized',
      'resources/subscribe',
      'tools/call',
    ]);

    // The new session sends updates of the resource still subscribed, and only of it.
    await client.callTool('touch-resource', { uri: 'test://static/text/2' });
    await client.callTool('touch-resource', { uri: 'test://static/text/1' });
    await until(() => updated.length > 0);
    expect(updated).toEqual(['test://static/text/1']);
  });

  /** A call capped at 1 s whose session expires, with `rules` acting on what follows: how it failed, and when. */
  async function cappedAfterExpiry(...rules: FaultRule[]) {
    const scenario = await servers.scenario({ inner: 'stateful', rules: [expireFirstCall, ...rules] });
    const { client } = await open(scenario.mcp, { transport: { standaloneStream: false } });
    const started = performance.now();
    const error = await client.callTool('echo', { text: 'x' }, { maxTotalTimeout: 1000 }).catch((caught) => caught);
    const ms = performance.now() - started;
    expect(error).toMatchObject({ name: 'TimeoutError', message: 'tools/call exceeded its total timeout of 1000 ms' });
    return { scenario, client, ms };
  }

  it("the wait for a renewal and the resend share the call's maxTotalTimeout (1 s here): a slow renewal, then a stalled resend, end the call at ~1 s with TimeoutError", async () => {
    const { scenario, ms } = await cappedAfterExpiry(
      { match: { method: 'initialize', nth: 2 }, action: { type: 'stall', ms: 700 } },
      { match: { method: 'tools/call', nth: 2 }, action: { type: 'stall', ms: 3000 } },
    );
    expect(ms).toBeGreaterThan(900);
    // A fresh cap for the resend made it 0.7 s + 1 s.
    expect(ms).toBeLessThan(1450);
    expect((await scenario.stats()).methods['tools/call']).toBe(2);
  });

  it("a renewal slower than what is left of the call's maxTotalTimeout (1 s here) is not waited for past it", async () => {
    const { client, ms } = await cappedAfterExpiry({
      match: { method: 'initialize', nth: 2 },
      action: { type: 'stall', ms: 2000 },
    });
    expect(ms).toBeLessThan(1600);
    // The renewal goes on for later calls.
    expect((await client.callTool('echo', { text: 'later' })).text).toBe('later');
  });

  it('does not start another session for a 404 that answers a request sent before the renewal', async () => {
    const scenario = await servers.scenario({
      inner: 'stateful',
      rules: [
        { match: { method: 'tools/call', tool: 'echo', times: 1 }, action: { type: 'expire-session' } },
        // Reaches the server after the renewal, still carrying the expired session id: 404.
        { match: { method: 'tools/call', tool: 'add', times: 1 }, action: { type: 'stall', ms: 300 } },
      ],
    });
    const { client, transport } = await open(scenario.mcp, { transport: { standaloneStream: false } });
    const late = client.callTool('add', { a: 1, b: 2 });
    await until(async () => (await scenario.stats()).rules[1]?.applied === 1);
    expect((await client.callTool('echo', { text: 'renewed' })).text).toBe('renewed');
    const renewed = transport.sessionId;
    expect((await late).structuredContent).toEqual({ sum: 3 });

    const stats = await scenario.stats();
    expect(stats.methods.initialize).toBe(2);
    expect(transport.sessionId).toBe(renewed);
    const toolCalls = stats.requests.filter((request) => request.method === 'tools/call');
    expect(toolCalls.at(-1)?.headers['mcp-session-id']).toBe(renewed);
  });
});

describe('session snapshot', () => {
  it('resumes a session from a JSON round-tripped snapshot on a new transport without a second initialize', async () => {
    const scenario = await servers.scenario({ inner: 'stateful' });
    const first = await open(scenario.mcp, { transport: { standaloneStream: false } });
    const snapshot = JSON.parse(JSON.stringify(first.client.session)) as SessionSnapshot;
    expect(snapshot).toMatchObject({
      protocolVersion: '2025-11-25',
      sessionId: first.transport.sessionId,
      serverInfo: { name: 'mcp-reference-server' },
    });

    const second = await open(scenario.mcp, { client: { resume: snapshot } });
    const result = await second.client.callTool('echo', { text: 'resumed' });
    expect(result.text).toBe('resumed');
    expect(second.client.protocolVersion).toBe('2025-11-25');

    const stats = await scenario.stats();
    expect(stats.methods.initialize).toBe(1);
    expect(stats.methods[PROBE] ?? 0).toBeLessThanOrEqual(1);
    const call = stats.requests.find((request) => request.method === 'tools/call');
    expect(call?.headers['mcp-session-id']).toBe(snapshot.sessionId);
    expect(call?.headers['mcp-protocol-version']).toBe('2025-11-25');
  });
});
