import { describe, expect, it } from 'vitest';
import { Connection, ConnectionError, type ConnectionEvent } from '../../src/connections/index.js';
import { states, useCleanup, useHttpServers } from './servers.js';

const servers = useHttpServers();
const cleanup = useCleanup();

/** A connection to `path` on the modes server that logs its events. */
function open(path: string, name = 'reference') {
  const events: ConnectionEvent[] = [];
  const connection = new Connection(
    { name, url: `${servers().modes}${path}` },
    { onEvent: (event) => events.push(event) },
  );
  cleanup(() => connection.close());
  return { connection, events };
}

describe('Connection', () => {
  it('goes idle → connecting → ready against a v1 server, with its tools and who it is', async () => {
    const { connection, events } = open('/stateful');
    expect(connection.getSnapshot().state.status).toBe('idle');
    await connection.connect();
    const snapshot = connection.getSnapshot();
    expect(states(events)).toEqual(['connecting#0', 'ready']);
    expect(snapshot.era).toBe('legacy');
    expect(snapshot.serverInfo?.name).toBe('mcp-reference-server');
    expect(snapshot.tools.map((tool) => tool.name)).toContain('echo');
    expect(snapshot.tools).toHaveLength(11);
    expect(Object.isFrozen(snapshot)).toBe(true);
    const result = await connection.callTool('echo', { text: 'hi' });
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
    await connection.close();
    expect(states(events)).toEqual(['connecting#0', 'ready', 'closed']);
  });

  it('reaches ready in the modern era against a v2 server', async () => {
    const { connection } = open('/v2');
    await connection.connect();
    expect(connection.getSnapshot().era).toBe('modern');
    expect(connection.getSnapshot().protocolVersion).toBe('2026-07-28');
    expect(connection.getSnapshot().tools.length).toBeGreaterThan(11);
    await connection.close();
  });

  it('keeps the snapshot object until something changes', async () => {
    const { connection } = open('/stateful');
    const idle = connection.getSnapshot();
    expect(connection.getSnapshot()).toBe(idle);
    await connection.connect();
    const ready = connection.getSnapshot();
    expect(ready).not.toBe(idle);
    expect(connection.getSnapshot()).toBe(ready);
    await connection.callTool('echo', { text: 'no change' });
    expect(connection.getSnapshot()).toBe(ready);
    await connection.close();
    expect(connection.getSnapshot()).not.toBe(ready);
  });

  it('works with subscribe and getSnapshot taken off the connection, as useSyncExternalStore takes them', async () => {
    const { connection } = open('/stateful');
    const { subscribe, getSnapshot } = connection;
    const seen: string[] = [];
    const unsubscribe = subscribe(() => seen.push(getSnapshot().state.status));
    await connection.connect();
    unsubscribe();
    // One call per event (the tool list came in while connecting too), each seeing the snapshot of its moment.
    expect([...new Set(seen)]).toEqual(['connecting', 'ready']);
  });

  it('tells subscribers each event until they unsubscribe', async () => {
    const { connection } = open('/stateful');
    const heard: string[] = [];
    const unsubscribe = connection.subscribe((event) => heard.push(event.type));
    await connection.connect();
    expect(heard).toContain('state');
    const before = heard.length;
    unsubscribe();
    await connection.close();
    expect(heard).toHaveLength(before);
  });

  it('is idempotent: connect twice makes one attempt, close twice closes once', async () => {
    const { connection, events } = open('/stateful');
    await Promise.all([connection.connect(), connection.connect()]);
    await Promise.all([connection.close(), connection.close()]);
    expect(states(events)).toEqual(['connecting#0', 'ready', 'closed']);
    await expect(connection.connect()).rejects.toMatchObject({ code: 'closed' });
  });

  it('gives the live client only while ready', async () => {
    const { connection } = open('/stateful');
    expect(() => connection.client).toThrow(ConnectionError);
    await connection.connect();
    expect(connection.client.serverInfo?.name).toBe('mcp-reference-server');
    await connection.close();
    expect(() => connection.client).toThrow(expect.objectContaining({ code: 'closed' }));
  });

  it('refuses a config with neither url nor transport, or both', () => {
    expect(() => new Connection({ name: 'x' })).toThrow(expect.objectContaining({ code: 'invalid_config' }));
    expect(() => new Connection({ name: '', url: 'http://x' })).toThrow(ConnectionError);
    expect(() => new Connection({ name: 'x', url: 'not a url' })).toThrow(ConnectionError);
  });
});
