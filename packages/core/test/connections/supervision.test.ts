import { describe, expect, it, vi } from 'vitest';
import { Connection, type ConnectionEvent, type ConnectionOptions } from '../../src/connections/index.js';
import { startWatchedFaultServer } from '../transport/http/watched-servers.js';
import {
  type Cable,
  faultScenario,
  type HttpServers,
  portOf,
  type RecordingProxy,
  startCable,
  startHttpServers,
  startRecordingProxy,
  states,
  useCleanup,
} from './servers.js';

/** Everything a test started, stopped after it whatever happened. */
const cleanup = useCleanup();

async function servers(port?: number): Promise<HttpServers> {
  const started = await startHttpServers(port === undefined ? {} : { port });
  cleanup(() => started.close());
  return started;
}

/** The reference server (/stateful) behind a recording proxy, reached through a cable a test can unplug. */
async function behindCable(): Promise<{ proxy: RecordingProxy; cable: Cable }> {
  const started = await servers();
  const proxy = await startRecordingProxy(`${started.modes}/stateful`);
  cleanup(() => proxy.close());
  const cable = await startCable(proxy.url);
  cleanup(() => cable.close());
  return { proxy, cable };
}

/** Reconnects fast, so a test sees several attempts in little time. */
const quick = { baseDelayMs: 20, maxDelayMs: 100 };

function open(url: string, options: ConnectionOptions = {}) {
  const events: ConnectionEvent[] = [];
  const connection = new Connection(
    { name: 'server', url },
    { ...options, onEvent: (event) => events.push(event), reconnect: { ...quick, ...options.reconnect } },
  );
  cleanup(() => connection.close());
  return { connection, events };
}

/** Resolves once the connection reaches `status`. */
function reaches(connection: Connection, status: string): Promise<void> {
  return vi.waitFor(() => expect(connection.getSnapshot().state.status).toBe(status), { timeout: 10_000 });
}

/**
 * The states of a connection whose first attempt and `attempts` reconnects all failed:
 * `connecting#0`, then `reconnecting#n` and `connecting#n` for each, then `failed`.
 */
function spentBudget(attempts: number): string[] {
  const reconnects = Array.from({ length: attempts }, (_, index) => [
    `reconnecting#${index + 1}`,
    `connecting#${index + 1}`,
  ]);
  return ['connecting#0', ...reconnects.flat(), 'failed'];
}

describe('Connection supervision', () => {
  it('reconnects after the server restarts on the same port, its dead session renewed', async () => {
    const first = await servers();
    const port = portOf(first.modes);
    const { connection, events } = open(`${first.modes}/stateful`, { reconnect: { maxAttempts: 100 } });
    await connection.connect();
    await first.close();
    await expect(connection.callTool('echo', { text: 'lost' })).rejects.toThrow();
    expect(connection.getSnapshot().state.status).toMatch(/reconnecting|connecting/);
    await servers(port);
    await reaches(connection, 'ready');
    const result = await connection.callTool('echo', { text: 'back' });
    expect(result.content).toEqual([{ type: 'text', text: 'back' }]);
    const seen = states(events);
    expect(seen.slice(0, 3)).toEqual(['connecting#0', 'ready', 'reconnecting#1']);
    expect(seen.at(-1)).toBe('ready');
    expect(seen.filter((state) => state === 'ready')).toHaveLength(2);
  });

  it('resumes the same session after a network drop, with no new handshake', async () => {
    const { proxy, cable } = await behindCable();
    const { connection, events } = open(`${cable.origin}/`, {
      healthCheck: { intervalMs: 50, timeoutMs: 1000 },
      reconnect: { maxAttempts: 100 },
    });
    await connection.connect();
    const session = connection.client.session?.sessionId;
    expect(proxy.count('initialize')).toBe(1);
    cable.unplug();
    await reaches(connection, 'reconnecting');
    cable.plug();
    await reaches(connection, 'ready');
    expect(proxy.count('initialize')).toBe(1);
    expect(connection.client.session?.sessionId).toBe(session);
    expect(events).toContainEqual(expect.objectContaining({ type: 'health', ok: false }));
  });

  it('notices a network drop through its GET stream alone, with no call in flight and no health check', async () => {
    const { proxy, cable } = await behindCable();
    // The stream gives up after its second failure in a row (streamReconnect.maxFailures), a second or so.
    const { connection, events } = open(`${cable.origin}/`, {
      http: { streamReconnect: { maxFailures: 2, minDelay: 100 } },
      reconnect: { maxAttempts: 100 },
    });
    await connection.connect();
    const session = connection.client.session?.sessionId;
    // The GET stream is open: of the requests in the session, one had no JSON-RPC method (every one but
    // server/discover and initialize carries the session).
    await vi.waitFor(() => expect(proxy.sessions.length - (proxy.methods.length - 2)).toBe(1));
    cable.unplug();
    await reaches(connection, 'reconnecting');
    const lost = events.find((event) => event.type === 'state' && event.to.status === 'reconnecting');
    expect(lost).toMatchObject({
      to: { error: { message: expect.stringContaining('(HTTP GET) could not be reopened') } },
    });
    expect(events.some((event) => event.type === 'health')).toBe(false);
    cable.plug();
    await reaches(connection, 'ready');
    // The same session, resumed: no new handshake.
    expect(proxy.count('initialize')).toBe(1);
    expect(connection.client.session?.sessionId).toBe(session);
  });

  it('stays ready when the server refuses its GET stream for good, once a ping found the server there', async () => {
    const started = await servers();
    const refusing = await faultScenario(started.faults, {
      inner: 'stateful',
      rules: [{ match: { httpMethod: 'GET' }, action: { type: 'status', status: 403, body: 'no stream for you' } }],
    });
    const { connection, events } = open(refusing.mcp);
    await connection.connect();
    await vi.waitFor(() => expect(events).toContainEqual({ type: 'health', ok: true }));
    expect(states(events)).toEqual(['connecting#0', 'ready']);
    expect((await refusing.stats()).methods.ping).toBe(1);
    const result = await connection.callTool('echo', { text: 'still' });
    expect(result.content).toEqual([{ type: 'text', text: 'still' }]);
  });

  it('renews a session the server expired (404) without leaving ready, and stores the new one', async () => {
    const started = await servers();
    const proxy = await startRecordingProxy(`${started.modes}/stateful`);
    cleanup(() => proxy.close());
    const { MemoryStore } = await import('../../src/connections/index.js');
    const store = new MemoryStore();
    const { connection, events } = open(proxy.url, { store });
    await connection.connect();
    const old = connection.client.session?.sessionId as string;
    expect(await store.get('mcp:session:server')).toMatchObject({ sessionId: old });
    proxy.forgotten.add(old);
    const result = await connection.callTool('echo', { text: 'again' });
    expect(result.content).toEqual([{ type: 'text', text: 'again' }]);
    expect(proxy.count('initialize')).toBe(2);
    const renewed = connection.client.session?.sessionId;
    expect(renewed).not.toBe(old);
    await vi.waitFor(async () => expect(await store.get('mcp:session:server')).toMatchObject({ sessionId: renewed }));
    expect(states(events)).toEqual(['connecting#0', 'ready']);
  });

  it('fails with the budget spent when the server never answers, each attempt cut by connectTimeout', async () => {
    const started = await servers();
    const stalled = await faultScenario(started.faults, { rules: [{ action: { type: 'stall' } }] });
    const { connection, events } = open(stalled.mcp, {
      connectTimeout: 300,
      reconnect: { maxAttempts: 2 },
      client: { limits: { probeTimeout: 100 } },
    });
    await expect(connection.connect()).rejects.toMatchObject({
      code: 'reconnect_budget',
      cause: expect.objectContaining({ name: 'TimeoutError' }),
    });
    expect(states(events)).toEqual(spentBudget(2));
  });

  it('makes exactly reconnect.maxAttempts attempts against a refused port, then fails', async () => {
    const started = await servers();
    const { connection, events } = open(started.refused, { reconnect: { maxAttempts: 3 } });
    await expect(connection.connect()).rejects.toMatchObject({ code: 'reconnect_budget' });
    expect(states(events)).toEqual(spentBudget(3));
  });

  it('stops at reconnect.maxElapsedMs whatever attempts are left', async () => {
    const started = await servers();
    // random 0: each wait is half its step, 100, 200, 400, …: the third would start past 500 ms.
    const { connection, events } = open(started.refused, {
      random: () => 0,
      reconnect: { maxAttempts: 100, baseDelayMs: 200, maxDelayMs: 10_000, maxElapsedMs: 500 },
    });
    await expect(connection.connect()).rejects.toMatchObject({ code: 'reconnect_budget' });
    expect(states(events).filter((state) => state.startsWith('connecting'))).toEqual([
      'connecting#0',
      'connecting#1',
      'connecting#2',
    ]);
  });

  it('does not reset the budget for a server that accepts the handshake and drops before any answer', async () => {
    const started = await servers();
    // initialize works, every tools/list is reset: a connection that never proves itself.
    const flaky = await faultScenario(started.faults, {
      rules: [{ match: { method: 'tools/list' }, action: { type: 'reset-before' } }],
    });
    const { connection, events } = open(flaky.mcp, { reconnect: { maxAttempts: 3 } });
    await expect(connection.connect()).rejects.toMatchObject({ code: 'reconnect_budget' });
    expect(states(events).filter((state) => state.startsWith('connecting'))).toHaveLength(4);
    expect((await flaky.stats()).methods.initialize).toBe(4);
  });

  it('detects a dead server with the health check', async () => {
    const started = await servers();
    const { connection, events } = open(`${started.modes}/stateful`, {
      healthCheck: { intervalMs: 50, timeoutMs: 500 },
      reconnect: { maxAttempts: 0 },
    });
    await connection.connect();
    await vi.waitFor(() => expect(events).toContainEqual({ type: 'health', ok: true }));
    await started.close();
    await reaches(connection, 'failed');
    expect(events).toContainEqual(expect.objectContaining({ type: 'health', ok: false }));
    expect(connection.getSnapshot().state).toMatchObject({ error: { code: 'reconnect_budget' } });
  });

  it('reconnects when a health-check ping never answers, after healthCheck.timeoutMs, and lets go of the ping', async () => {
    // A fault server that shows, from its side, which responses the client still holds open.
    const watched = await startWatchedFaultServer();
    cleanup(() => watched.close());
    const scenario = watched.scenario({
      inner: 'stateful',
      rules: [{ match: { method: 'ping' }, action: { type: 'stall' } }],
    });
    const timeoutMs = 400;
    // A long wait before the next attempt keeps the connection in reconnecting while the test looks.
    const { connection, events } = open(scenario.mcp, {
      healthCheck: { intervalMs: 50, timeoutMs },
      reconnect: { baseDelayMs: 60_000, maxDelayMs: 60_000 },
    });
    await connection.connect();
    const readyAt = performance.now();
    await vi.waitFor(async () => expect((await scenario.stats()).methods.ping).toBe(1));
    await reaches(connection, 'reconnecting');
    // The ping started at least intervalMs after ready, and was given up no sooner than timeoutMs after that.
    expect(performance.now() - readyAt).toBeGreaterThanOrEqual(timeoutMs);
    expect(events).toContainEqual({
      type: 'health',
      ok: false,
      error: expect.objectContaining({ name: 'TimeoutError' }),
    });
    expect(connection.getSnapshot().state).toMatchObject({ attempt: 1, error: { name: 'TimeoutError' } });
    // The stalled ping's POST (and the rest of the dropped client's streams) closed at the server while the
    // connection still waits to reconnect, and no health check ran after the drop.
    await vi.waitFor(() => expect(watched.openResponses()).toEqual([]));
    expect(connection.getSnapshot().state.status).toBe('reconnecting');
    expect(states(events)).toEqual(['connecting#0', 'ready', 'reconnecting#1']);
    expect((await scenario.stats()).methods.ping).toBe(1);
  });

  it('fails at once, without reconnecting, when the server refuses for good (403)', async () => {
    const started = await servers();
    const refusing = await faultScenario(started.faults, { rules: [{ action: { type: 'status', status: 403 } }] });
    const { connection, events } = open(refusing.mcp, { client: { limits: { probeTimeout: 100 } } });
    await expect(connection.connect()).rejects.toMatchObject({ name: 'HttpError', status: 403 });
    expect(states(events)).toEqual(['connecting#0', 'failed']);
  });
});

describe('Connection close', () => {
  /** The log must stay as it is for longer than the next attempt or check would take. */
  async function staysSilent(events: ConnectionEvent[]): Promise<void> {
    const count = events.length;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(events).toHaveLength(count);
  }

  it('from idle: closed, and nothing else', async () => {
    const { connection, events } = open('http://127.0.0.1:9/mcp');
    await connection.close();
    expect(states(events)).toEqual(['closed']);
    await expect(connection.connect()).rejects.toMatchObject({ code: 'closed' });
    await staysSilent(events);
  });

  it('while connecting to a server that never answers: the attempt ends, nothing reconnects', async () => {
    const started = await servers();
    const stalled = await faultScenario(started.faults, { rules: [{ action: { type: 'stall' } }] });
    const { connection, events } = open(stalled.mcp, { connectTimeout: 200 });
    const connecting = connection.connect();
    await vi.waitFor(async () => expect((await stalled.stats()).methods).not.toEqual({}));
    await connection.close();
    await expect(connecting).rejects.toMatchObject({ code: 'closed' });
    expect(states(events)).toEqual(['connecting#0', 'closed']);
    await staysSilent(events);
  });

  it('while reconnecting: the planned attempt never starts', async () => {
    const started = await servers();
    const { connection, events } = open(started.refused, { reconnect: { baseDelayMs: 200, maxDelayMs: 200 } });
    void connection.connect();
    await reaches(connection, 'reconnecting');
    await connection.close();
    expect(states(events)).toEqual(['connecting#0', 'reconnecting#1', 'closed']);
    await staysSilent(events);
  });

  it('while ready with a health check: no more pings', async () => {
    const started = await servers();
    const { connection, events } = open(`${started.modes}/stateful`, { healthCheck: { intervalMs: 20 } });
    await connection.connect();
    await connection.close();
    await staysSilent(events);
    expect(states(events)).toEqual(['connecting#0', 'ready', 'closed']);
  });

  it('from failed: closed, and reconnect() does nothing after', async () => {
    const started = await servers();
    const { connection, events } = open(started.refused, { reconnect: { maxAttempts: 0 } });
    await expect(connection.connect()).rejects.toMatchObject({ code: 'reconnect_budget' });
    await connection.close();
    await expect(connection.reconnect()).rejects.toMatchObject({ code: 'closed' });
    expect(states(events)).toEqual(['connecting#0', 'failed', 'closed']);
    await staysSilent(events);
  });
});
