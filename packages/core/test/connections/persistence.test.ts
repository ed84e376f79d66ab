import { describe, expect, it } from 'vitest';
import { Connection, type ConnectionEvent, MemoryStore, type Store } from '../../src/connections/index.js';
import { type RecordingProxy, startRecordingProxy, useCleanup, useHttpServers } from './servers.js';

const servers = useHttpServers();

const cleanup = useCleanup();

async function proxyTo(path: string): Promise<RecordingProxy> {
  const proxy = await startRecordingProxy(`${servers().modes}${path}`);
  cleanup(() => proxy.close());
  return proxy;
}

/** A connection as a new page or process would make it: nothing shared with the last but the store. */
function open(url: string, store: Store, events: ConnectionEvent[] = []): Connection {
  const connection = new Connection({ name: 'notes', url }, { store, onEvent: (event) => events.push(event) });
  cleanup(() => connection.close());
  return connection;
}

/** A first connection to the server at `path` (through a recording proxy), connected, with the store it keeps. */
async function connectedOnce(path: string) {
  const proxy = await proxyTo(path);
  const store = new MemoryStore();
  const first = open(proxy.url, store);
  await first.connect();
  return { proxy, store, first };
}

/** The handshakes the server saw: `initialize` (legacy) and `server/discover` (the probe, or modern). */
function handshakes(proxy: RecordingProxy) {
  return { initialize: proxy.count('initialize'), discover: proxy.count('server/discover') };
}

describe('Connection persistence', () => {
  it('resumes a legacy session from the store with no initialize and no server/discover (v1)', async () => {
    const { proxy, store, first } = await connectedOnce('/stateful');
    const session = first.getSnapshot();
    expect(handshakes(proxy)).toEqual({ initialize: 1, discover: 1 });
    await first.close({ keepSession: true });

    const second = open(proxy.url, store);
    await second.connect();
    expect(handshakes(proxy)).toEqual({ initialize: 1, discover: 1 });
    expect(second.getSnapshot()).toMatchObject({
      era: 'legacy',
      serverInfo: session.serverInfo,
      protocolVersion: session.protocolVersion,
    });
    expect(second.getSnapshot().tools).toHaveLength(11);
    expect((await second.callTool('echo', { text: 'resumed' })).content).toEqual([{ type: 'text', text: 'resumed' }]);
    expect(handshakes(proxy)).toEqual({ initialize: 1, discover: 1 });
  });

  it('resumes a modern session from the store with no server/discover (v2, 2026-07-28)', async () => {
    const { proxy, store, first } = await connectedOnce('/v2');
    expect(first.getSnapshot().era).toBe('modern');
    expect(handshakes(proxy)).toEqual({ initialize: 0, discover: 1 });
    await first.close({ keepSession: true });

    const second = open(proxy.url, store);
    await second.connect();
    expect(second.getSnapshot().era).toBe('modern');
    expect((await second.callTool('echo', { text: 'resumed' })).content).toEqual([{ type: 'text', text: 'resumed' }]);
    expect(handshakes(proxy)).toEqual({ initialize: 0, discover: 1 });
  });

  it('handshakes afresh over a stored value that is garbage, and overwrites it; the stored era skips the probe', async () => {
    const { proxy, store, first } = await connectedOnce('/stateful');
    await first.close({ keepSession: true });
    expect(await store.get(`mcp:era:${proxy.url}`)).toBe('legacy');
    await store.set('mcp:session:notes', { protocolVersion: '1999-01-01', serverInfo: 'me' });

    const events: ConnectionEvent[] = [];
    const second = open(proxy.url, store, events);
    await second.connect();
    // A second initialize, and no second probe: the era verdict came from the store.
    expect(handshakes(proxy)).toEqual({ initialize: 2, discover: 1 });
    expect(await store.get('mcp:session:notes')).toMatchObject({ sessionId: second.client.session?.sessionId });
    expect(events).toContainEqual(expect.objectContaining({ type: 'warning' }));
  });

  it('renews a stored session the server no longer knows, and stores the new one', async () => {
    const { proxy, store, first } = await connectedOnce('/stateful');
    // Closed without keepSession: the session is ended on the server (DELETE) and forgotten.
    await first.close();
    expect(await store.get('mcp:session:notes')).toBeUndefined();
    const dead = first.getSnapshot();
    await store.set('mcp:session:notes', {
      serverKey: proxy.url,
      protocolVersion: dead.protocolVersion,
      sessionId: 'no-such-session',
      serverInfo: dead.serverInfo,
      capabilities: dead.capabilities,
    });

    const second = open(proxy.url, store);
    await second.connect();
    expect(second.getSnapshot().state.status).toBe('ready');
    expect(proxy.sessions).toContain('no-such-session');
    expect(handshakes(proxy).initialize).toBe(2);
    const renewed = second.client.session?.sessionId;
    expect(renewed).not.toBe('no-such-session');
    expect(await store.get('mcp:session:notes')).toMatchObject({ sessionId: renewed });
  });

  it('keeps nothing of a session under another name or another URL', async () => {
    const { store, first } = await connectedOnce('/stateful');
    await first.close({ keepSession: true });
    const other = await proxyTo('/stateful');
    const moved = open(other.url, store);
    await moved.connect();
    expect(handshakes(other).initialize).toBe(1);
  });

  it('survives a store that throws: it connects with a handshake and says so', async () => {
    const proxy = await proxyTo('/stateful');
    const broken: Store = {
      get: async () => {
        throw new Error('disk on fire');
      },
      set: async () => {
        throw new Error('disk on fire');
      },
      delete: async () => {
        throw new Error('disk on fire');
      },
      update: async () => {
        throw new Error('disk on fire');
      },
    };
    const events: ConnectionEvent[] = [];
    const connection = open(proxy.url, broken, events);
    await connection.connect();
    expect(connection.getSnapshot().state.status).toBe('ready');
    expect(events.filter((event) => event.type === 'warning').length).toBeGreaterThan(0);
  });
});
