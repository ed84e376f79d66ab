import { describe, expect, it } from 'vitest';
import type { SessionInfo } from '../../../src/index.js';
import type { FetchCall } from './counting-fetch.js';
import { openStandaloneGet, until, useClients, useHttpServers } from './harness.js';

const servers = useHttpServers();
const open = useClients();

const listChanged = (notifications: readonly { method: string }[]) =>
  notifications.filter((notification) => notification.method === 'notifications/tools/list_changed').length;

describe('standalone GET stream', () => {
  it('opens a GET stream with the session id once initialize is done', async () => {
    const scenario = await servers.scenario({ inner: 'stateful' });
    const { transport, calls } = await open(scenario.mcp);
    await until(() => openStandaloneGet(calls));
    const { requests } = await scenario.stats();
    const gets = requests.filter((request) => request.httpMethod === 'GET');
    expect(gets).toHaveLength(1);
    expect(gets[0]?.headers).toMatchObject({ accept: 'text/event-stream', 'mcp-session-id': transport.sessionId });
    const initialized = requests.findIndex((request) => request.method === 'notifications/initialized');
    expect(requests.indexOf(gets[0]!)).toBeGreaterThan(initialized);
  });

  it('stops after a 405 from a server that offers no stream (/stateless)', async () => {
    const scenario = await servers.scenario({ inner: 'stateless' });
    const { client, calls, errors } = await open(scenario.mcp);
    await until(() => calls.some((call) => call.httpMethod === 'GET' && call.status === 405));
    // Long enough for a retry with backoff to show up, were there one.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await client.callTool('echo', { text: 'still fine' })).text).toBe('still fine');
    expect((await scenario.stats()).requests.filter((request) => request.httpMethod === 'GET')).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('delivers a server notification sent outside any POST to onNotification', async () => {
    const { client, calls, notifications } = await open(`${servers.modes}/stateful`);
    await until(() => openStandaloneGet(calls));
    expect((await client.callTool('add-tool')).text).toBe('added');
    // The reference server sends tools/list_changed on the GET stream (test-servers/README.md).
    await until(() => listChanged(notifications) === 1);
  });

  it('reconnects with Last-Event-ID after the stream drops, and keeps delivering', async () => {
    const scenario = await servers.scenario({
      inner: 'resumable',
      // A reset may swallow the last event in flight; the replay brings it back.
      rules: [{ match: { httpMethod: 'GET', nth: 1 }, action: { type: 'drop-sse-after', events: 2, how: 'reset' } }],
    });
    const { client, calls, notifications, errors } = await open(scenario.mcp);
    await until(() => openStandaloneGet(calls));
    await client.callTool('add-tool');
    await until(() => listChanged(notifications) === 1);
    await client.callTool('add-tool');
    await until(() => calls.filter((call) => call.httpMethod === 'GET' && call.status === 200).length === 2);
    await until(() => listChanged(notifications) === 2);
    await client.callTool('add-tool');
    await until(() => listChanged(notifications) === 3);

    const gets = (await scenario.stats()).requests.filter((request) => request.httpMethod === 'GET');
    expect(gets).toHaveLength(2);
    expect(gets[0]?.headers['last-event-id']).toBeUndefined();
    expect(gets[1]?.headers['last-event-id']).toMatch(/.+/);
    expect(errors).toEqual([]);
  });
});

/** What a Client with no handler, no `onNotification` and no `listen()` would tell the transport. */
const noServerMessages = (info: SessionInfo): SessionInfo => ({ ...info, serverMessages: false });

/** Lets a GET stream the transport wrongly asked for reach the wire (its code loads on demand). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

const gets = (calls: readonly FetchCall[]) => calls.filter((call) => call.httpMethod === 'GET');

describe('the GET stream only when the client takes server-initiated messages', () => {
  it('opens no GET stream when the session starts with serverMessages: false', async () => {
    const scenario = await servers.scenario({ inner: 'stateful' });
    const { client, calls } = await open(scenario.mcp, { sessionInfo: noServerMessages });
    expect((await client.callTool('echo', { text: 'posts only' })).text).toBe('posts only');
    await settle();
    expect(gets(calls)).toEqual([]);
    await client.close();
    expect((await scenario.stats()).requests.filter((request) => request.httpMethod === 'GET')).toEqual([]);
  });

  it.each([
    ['true', (info: SessionInfo): SessionInfo => ({ ...info, serverMessages: true })],
    ['absent', ({ serverMessages: _, ...info }: SessionInfo): SessionInfo => info],
  ])('opens the GET stream when serverMessages is %s', async (_, sessionInfo) => {
    const scenario = await servers.scenario({ inner: 'stateful' });
    const { calls } = await open(scenario.mcp, { sessionInfo });
    await until(() => openStandaloneGet(calls));
    expect((await scenario.stats()).requests.filter((request) => request.httpMethod === 'GET')).toHaveLength(1);
  });

  it('openServerStream() opens it later, exactly once however often it is called', async () => {
    const scenario = await servers.scenario({ inner: 'stateful' });
    const { client, transport, calls, notifications } = await open(scenario.mcp, { sessionInfo: noServerMessages });
    await settle();
    expect(gets(calls)).toEqual([]);
    transport.openServerStream();
    transport.openServerStream();
    await until(() => openStandaloneGet(calls));
    transport.openServerStream();
    // The stream works: the reference server sends tools/list_changed on it.
    expect((await client.callTool('add-tool')).text).toBe('added');
    await until(() => listChanged(notifications) === 1);
    expect(gets(calls)).toHaveLength(1);
    expect((await scenario.stats()).requests.filter((request) => request.httpMethod === 'GET')).toHaveLength(1);
  });

  it('openServerStream() sends its GET while the stream’s code loads, and a close then ends it for good', async () => {
    const scenario = await servers.scenario({ inner: 'stateful' });
    const { transport, calls } = await open(scenario.mcp, { sessionInfo: noServerMessages });
    transport.openServerStream();
    await transport.close();
    await settle();
    const sent = gets(calls).length;
    expect(sent).toBeLessThanOrEqual(1);
    await settle();
    expect(gets(calls)).toHaveLength(sent);
  });

  it('openServerStream() opens nothing after close, with standaloneStream: false, or on a 2026-07-28 session', async () => {
    const closed = await open(`${servers.modes}/stateful`, { sessionInfo: noServerMessages });
    await closed.client.close();
    closed.transport.openServerStream();

    const off = await open(`${servers.modes}/stateful`, { transport: { standaloneStream: false } });
    off.transport.openServerStream();

    const modern = await open(`${servers.modes}/v2?hub=open-server-stream`);
    expect(modern.client.era).toBe('modern');
    modern.transport.openServerStream();

    await settle();
    expect([gets(closed.calls), gets(off.calls), gets(modern.calls)]).toEqual([[], [], []]);
  });

  it('openServerStream() opens no second stream on an HTTP+SSE (2024-11-05) session', async () => {
    const { client, transport, calls } = await open(`${servers.modes}/legacy-sse`);
    expect(transport.usesLegacySse).toBe(true);
    transport.openServerStream();
    expect((await client.callTool('echo', { text: 'old' })).text).toBe('old');
    await settle();
    expect(gets(calls).map((call) => call.url.pathname)).toEqual(['/legacy-sse']);
  });
});
