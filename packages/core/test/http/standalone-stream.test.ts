import { describe, expect, it } from 'vitest';
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
