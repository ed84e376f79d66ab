import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ConnectionError,
  MemoryStore,
  Servers,
  type ServersOptions,
  type ServersSnapshot,
} from '../../src/connections/index.js';
import { LimitError } from '../../src/errors/limit-error.js';
import { type HttpServers, type RecordingProxy, startHttpServers, startRecordingProxy } from './servers.js';

// A set of real servers (test-servers/http over real sockets), counted at the
// server's door by the recording proxy where a test says "no handshake".

let http: HttpServers;
/** Accepts connections and never answers a request. */
let silent: Server;
let silentUrl: string;
const proxies: RecordingProxy[] = [];
const sets: Servers[] = [];

beforeAll(async () => {
  http = await startHttpServers();
  silent = createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`;
});
afterEach(async () => {
  await Promise.all(sets.splice(0).map((set) => set.close()));
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});
afterAll(async () => {
  silent.closeAllConnections();
  await new Promise((resolve) => silent.close(resolve));
  await http.close();
});

/** A set closed after the test; fast reconnects so failures settle quickly. */
function set(options: ServersOptions = {}): Servers {
  const servers = new Servers({
    ...options,
    connection: { reconnect: { maxAttempts: 0 }, ...options.connection },
  });
  sets.push(servers);
  return servers;
}

async function opened(options: ServersOptions): Promise<Servers> {
  const servers = await Servers.open({
    ...options,
    connection: { reconnect: { maxAttempts: 0 }, ...options.connection },
  });
  sets.push(servers);
  return servers;
}

/** The reference server (v1, sessions) behind a proxy that counts each method. */
async function counted(): Promise<RecordingProxy> {
  const proxy = await startRecordingProxy(`${http.modes}/stateful`);
  proxies.push(proxy);
  return proxy;
}

const statuses = (snapshot: ServersSnapshot) => snapshot.servers.map(({ name, state }) => [name, state.status]);
const stateful = () => `${http.modes}/stateful`;

describe('Servers: add, update, remove', () => {
  it('adds servers that connect, in order, each in the snapshot', async () => {
    const servers = set();
    const github = await servers.add({ name: 'github', url: stateful() });
    await servers.add({ name: 'docs', url: `${http.modes}/v2` });
    expect(servers.get('github')).toBe(github);
    expect(servers.get('GitHub')).toBe(github);
    expect(servers.list().map((connection) => connection.name)).toEqual(['github', 'docs']);
    const snapshot = await servers.ready();
    expect(statuses(snapshot)).toEqual([
      ['github', 'ready'],
      ['docs', 'ready'],
    ]);
    expect(snapshot.servers.map((server) => server.era)).toEqual(['legacy', 'modern']);
  });

  it('keeps the snapshot object until something changes, and tells subscribers of each change', async () => {
    const servers = set();
    // Unbound, as useSyncExternalStore(servers.subscribe, servers.getSnapshot) calls them.
    const { subscribe, getSnapshot } = servers;
    const empty = getSnapshot();
    expect(servers.getSnapshot()).toBe(empty);
    let told = 0;
    const unsubscribe = subscribe(() => told++);
    await servers.add({ name: 'a', url: stateful() });
    const ready = await servers.ready();
    expect(ready).not.toBe(empty);
    expect(told).toBeGreaterThan(0);
    expect(servers.getSnapshot()).toBe(ready);
    await servers.get('a')?.callTool('echo', { text: 'no change' });
    expect(servers.getSnapshot()).toBe(ready);
    expect(Object.isFrozen(ready)).toBe(true);
    unsubscribe();
    const before = told;
    await servers.remove('a');
    expect(told).toBe(before);
  });

  it('updates a server: the old connection closes, the new one takes its place', async () => {
    const servers = set();
    await servers.add({ name: 'a', url: stateful() });
    await servers.add({ name: 'b', url: stateful() });
    const old = servers.get('a');
    await servers.ready();
    const replaced = await servers.update('a', { url: `${http.modes}/v2` });
    expect(old?.getSnapshot().state.status).toBe('closed');
    expect(servers.list()).toEqual([replaced, servers.get('b')]);
    expect((await servers.ready()).servers[0]?.era).toBe('modern');
    await expect(servers.update('nobody', { url: stateful() })).rejects.toThrow(ConnectionError);
    await expect(servers.update('a', { name: 'renamed', url: stateful() })).rejects.toThrow('remove and add');
  });

  it('removes a server: closes it, deletes its stored session and config, and keeps the others', async () => {
    const store = new MemoryStore();
    const servers = set({ store });
    const a = await servers.add({ name: 'a', url: stateful() });
    await servers.add({ name: 'b', url: stateful() });
    await servers.ready();
    expect(await store.get('mcp:session:a')).toBeDefined();
    expect(await servers.remove('A')).toBe(true);
    expect(a.getSnapshot().state.status).toBe('closed');
    expect(await store.get('mcp:session:a')).toBeUndefined();
    expect(await store.get('mcp:config:a')).toBeUndefined();
    expect(await store.get('mcp:configs')).toEqual(['b']);
    expect(statuses(servers.getSnapshot())).toEqual([['b', 'ready']]);
    expect(await servers.remove('a')).toBe(false);
  });
});

describe('Servers: persistence', () => {
  it('restores configs and sessions in a second set on the same store with no handshake', async () => {
    const store = new MemoryStore();
    const [one, two] = [await counted(), await counted()];
    const first = set({ store });
    await first.add({ name: 'one', url: one.url, headers: { 'x-api-key': 'k1' } });
    await first.add({ name: 'two', url: two.url });
    await first.ready();
    await first.close();
    const handshakes = () =>
      ['initialize', 'server/discover'].reduce((sum, method) => sum + one.count(method) + two.count(method), 0);
    const before = handshakes();
    expect(one.count('initialize') + two.count('initialize')).toBe(2);

    const second = await opened({ store });
    expect(second.list().map((connection) => connection.config)).toEqual([
      { name: 'one', url: one.url, headers: { 'x-api-key': 'k1' } },
      { name: 'two', url: two.url },
    ]);
    const snapshot = await second.ready();
    expect(statuses(snapshot)).toEqual([
      ['one', 'ready'],
      ['two', 'ready'],
    ]);
    expect(handshakes()).toBe(before);
    const result = await second.get('one')?.callTool('echo', { text: 'resumed' });
    expect(result?.content).toEqual([{ type: 'text', text: 'resumed' }]);
  });

  it('keeps configs in configStore and sessions in store when both are given', async () => {
    const store = new MemoryStore();
    const configStore = new MemoryStore();
    const servers = set({ store, configStore, prefix: 'app:' });
    await servers.add({ name: 'a', url: stateful() });
    await servers.ready();
    expect(await configStore.get('app:configs')).toEqual(['a']);
    expect(await configStore.get('app:config:a')).toEqual({ name: 'a', url: stateful() });
    expect(await store.get('app:configs')).toBeUndefined();
    expect(await store.get('app:session:a')).toBeDefined();
  });

  it('keeps each set its own session with sessionStore, sharing the configs and era verdicts of store', async () => {
    const store = new MemoryStore();
    const [tabOne, tabTwo] = [new MemoryStore(), new MemoryStore()];
    const proxy = await counted();
    const first = set({ store, sessionStore: tabOne });
    await first.add({ name: 'a', url: proxy.url });
    await first.ready();
    // A second set on the same configs (another tab): the server comes with it, in a session of its own.
    const second = await opened({ store, sessionStore: tabTwo });
    expect(statuses(await second.ready())).toEqual([['a', 'ready']]);
    const one = (await tabOne.get('mcp:session:a')) as { sessionId: string };
    const two = (await tabTwo.get('mcp:session:a')) as { sessionId: string };
    expect(one.sessionId).not.toBe(two.sessionId);
    expect(await store.get('mcp:session:a')).toBeUndefined();
    expect(await store.get(`mcp:era:${proxy.url}`)).toBe('legacy');
    // The era verdict was shared: the second set made a handshake, but no probe of its own.
    expect([proxy.count('server/discover'), proxy.count('initialize')]).toEqual([1, 2]);

    // Removing the server in one set ends that set's session only; the other's goes on.
    await first.remove('a');
    expect(await tabOne.get('mcp:session:a')).toBeUndefined();
    const result = await second.get('a')?.callTool('echo', { text: 'mine still' });
    expect(result?.content).toEqual([{ type: 'text', text: 'mine still' }]);
    expect(proxy.sessions.at(-1)).toBe(two.sessionId);

    // A set on the second session store again (the tab reloaded) resumes its session with no handshake.
    await second.close();
    const reloaded = await opened({ store, sessionStore: tabTwo });
    expect(statuses(await reloaded.ready())).toEqual([]);
    await reloaded.add({ name: 'a', url: proxy.url });
    expect(statuses(await reloaded.ready())).toEqual([['a', 'ready']]);
    expect(proxy.count('initialize')).toBe(2);
    expect(reloaded.get('a')?.client.session?.sessionId).toBe(two.sessionId);
  });

  it('does not store a config with a transport factory', async () => {
    const store = new MemoryStore();
    const { MemoryTransport } = await import('../../src/transport/memory-transport.js');
    const servers = set({ store, connection: { connectTimeout: 100 } });
    await servers.add({ name: 'local', transport: () => MemoryTransport.createPair()[0] });
    expect(await store.get('mcp:configs')).toBeUndefined();
  });
});

describe('Servers: a server that fails or never answers', () => {
  it('keeps the ready servers ready beside one that fails, and offers only their tools', async () => {
    const servers = set();
    await servers.add({ name: 'good', url: stateful() });
    await servers.add({ name: 'down', url: http.refused });
    await servers.add({ name: 'also', url: `${http.modes}/stateful?profile=minimal` });
    const snapshot = await servers.ready();
    expect(statuses(snapshot)).toEqual([
      ['good', 'ready'],
      ['down', 'failed'],
      ['also', 'ready'],
    ]);
    // Both list echo: the one listed first keeps the plain name (names never move), the other is prefixed.
    const echoes = snapshot.tools.filter((tool) => tool.tool.name === 'echo').map(({ server, name }) => [server, name]);
    expect(echoes).toHaveLength(2);
    expect(echoes).toContainEqual(expect.arrayContaining([expect.stringMatching(/^(good|also)$/), 'echo']));
    expect(echoes.map(([server, name]) => name === 'echo' || name === `${server}__echo`)).toEqual([true, true]);
    expect(new Set(snapshot.tools.map((tool) => tool.name)).size).toBe(snapshot.tools.length);
    expect(snapshot.tools.filter((tool) => tool.server === 'also').map((tool) => tool.tool.name)).toEqual(['echo']);
    expect(snapshot.tools.every((tool) => tool.server !== 'down')).toBe(true);
    expect(servers.tools()).toBe(snapshot.tools);
  });

  it('ready({ timeout }) resolves at the timeout with a server that never answers still connecting', async () => {
    const servers = set({ connection: { connectTimeout: 60_000 } });
    await servers.add({ name: 'good', url: stateful() });
    await servers.add({ name: 'silent', url: silentUrl });
    const snapshot = await servers.ready({ timeout: 500 });
    expect(statuses(snapshot)).toEqual([
      ['good', 'ready'],
      ['silent', 'connecting'],
    ]);
  });

  it('ready() rejects with the reason of an aborted signal', async () => {
    const servers = set({ connection: { connectTimeout: 60_000 } });
    await servers.add({ name: 'silent', url: silentUrl });
    const controller = new AbortController();
    const waiting = servers.ready({ signal: controller.signal, timeout: Number.POSITIVE_INFINITY });
    controller.abort(new Error('user left'));
    await expect(waiting).rejects.toThrow('user left');
    await expect(servers.ready({ timeout: -1 })).rejects.toThrow(TypeError);
  });
});

describe('Servers: hostile configs', () => {
  it('refuses a name that is not a server name, with a typed error, and loses nothing', async () => {
    const servers = set();
    await servers.add({ name: 'good', url: stateful() });
    for (const name of ['', 'a b', 'a__b', '_a', 'x'.repeat(33), 'a:b', 'ü']) {
      await expect(servers.add({ name, url: stateful() })).rejects.toThrow(ConnectionError);
    }
    await expect(servers.add({ name: 'GOOD', url: stateful() })).rejects.toThrow('already named good');
    await expect(servers.add({ name: 'x' } as never)).rejects.toThrow('exactly one of `url` and `transport`');
    await expect(servers.add({ name: 'x', url: 'javascript:alert(1)' })).rejects.toThrow('not an http: or https: URL');
    await expect(servers.add({ name: 'x', url: stateful(), headers: { 'x-a': 'v\r\nx-b: w' } })).rejects.toThrow(
      'line break',
    );
    await expect(servers.add({ name: 'x', url: stateful(), headers: { 'a b': 'v' } })).rejects.toThrow('not a token');
    await expect(servers.add(null as never)).rejects.toThrow(ConnectionError);
    const huge = servers.add({ name: 'x', url: stateful(), headers: { 'x-big': 'v'.repeat(20_000) } });
    await expect(huge).rejects.toThrow(LimitError);
    await expect(huge).rejects.toMatchObject({ limit: 'maxConfigBytes', value: 16_384 });
    expect(statuses(await servers.ready())).toEqual([['good', 'ready']]);
  });

  it('stops at maxServers', async () => {
    const servers = set({ maxServers: 1 });
    await servers.add({ name: 'a', url: stateful() });
    await expect(servers.add({ name: 'b', url: stateful() })).rejects.toMatchObject({ limit: 'maxServers', value: 1 });
    expect(servers.list()).toHaveLength(1);
    expect(() => new Servers({ maxServers: 0 })).toThrow(TypeError);
  });

  it('skips stored configs someone else wrote badly, tells onError, and restores the rest', async () => {
    const store = new MemoryStore();
    await store.set('mcp:configs', ['good', 'bad name', 'garbage', 'huge', 'liar', 'GOOD', 'missing', 'file']);
    await store.set('mcp:config:good', { name: 'good', url: stateful() });
    await store.set('mcp:config:garbage', 'not a config');
    await store.set('mcp:config:huge', { name: 'huge', url: stateful(), headers: { big: 'x'.repeat(100_000) } });
    await store.set('mcp:config:liar', { name: 'good', url: stateful() });
    await store.set('mcp:config:file', { name: 'file', url: 'file:///etc/passwd' });
    const errors: Error[] = [];
    const servers = await opened({ store, onError: (error) => errors.push(error) });
    expect(statuses(await servers.ready())).toEqual([['good', 'ready']]);
    expect(errors.map((error) => error.constructor.name)).toEqual([
      'ConnectionError',
      'ConnectionError',
      'LimitError',
      'ConnectionError',
      'ConnectionError',
      'ConnectionError',
    ]);
    expect(errors[0]?.message).toContain('not a server name');
    // Nothing the set could not read is deleted: it is the app's (or the user's) to remove.
    expect(await store.get('mcp:config:garbage')).toBe('not a config');
    expect(await servers.remove('garbage')).toBe(true);
    expect(await store.get('mcp:config:garbage')).toBeUndefined();
  });

  it('restores nothing from a stored list that is not a list, and says so', async () => {
    const store = new MemoryStore();
    await store.set('mcp:configs', { evil: true });
    const errors: Error[] = [];
    const servers = await opened({ store, onError: (error) => errors.push(error) });
    expect(servers.list()).toEqual([]);
    expect(errors[0]).toBeInstanceOf(ConnectionError);
    // The set still works: adding writes a fresh list.
    await servers.add({ name: 'a', url: stateful() });
    expect(await store.get('mcp:configs')).toEqual(['a']);
  });

  it('restores at most maxServers of a stored list, and tells onError of the rest', async () => {
    const store = new MemoryStore();
    const names = Array.from({ length: 5 }, (_, index) => `s${index}`);
    await store.set('mcp:configs', names);
    for (const name of names) await store.set(`mcp:config:${name}`, { name, url: stateful() });
    const errors: Error[] = [];
    const servers = await opened({ store, maxServers: 2, onError: (error) => errors.push(error) });
    expect(servers.list().map((connection) => connection.name)).toEqual(['s0', 's1']);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ limit: 'maxServers', value: 2 });
  });
});

describe('Servers: close', () => {
  it('closes every connection, keeps sessions and configs stored, and refuses changes after', async () => {
    const store = new MemoryStore();
    const servers = set({ store });
    await servers.add({ name: 'a', url: stateful() });
    await servers.add({ name: 'down', url: http.refused });
    await servers.ready();
    await servers.close();
    await servers.close();
    const snapshot = servers.getSnapshot();
    expect(snapshot.closed).toBe(true);
    expect(snapshot.tools).toEqual([]);
    expect(statuses(snapshot)).toEqual([
      ['a', 'closed'],
      ['down', 'closed'],
    ]);
    expect(await store.get('mcp:session:a')).toBeDefined();
    expect(await store.get('mcp:configs')).toEqual(['a', 'down']);
    await expect(servers.add({ name: 'b', url: stateful() })).rejects.toMatchObject({ code: 'closed' });
    await expect(servers.remove('a')).rejects.toMatchObject({ code: 'closed' });
    expect((await servers.ready()).closed).toBe(true);
  });

  it('starts no connection for an add whose config was being stored when the set closed', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let storing = () => {};
    const stored = new Promise<void>((resolve) => {
      storing = resolve;
    });
    /** A store slow to write, as a remote one is. */
    class SlowStore extends MemoryStore {
      override async set(key: string, value: unknown): Promise<void> {
        storing();
        await gate;
        return super.set(key, value);
      }
    }
    const servers = set({ store: new SlowStore() });
    const adding = servers.add({ name: 'a', url: stateful() });
    await stored;
    const closing = servers.close();
    release();
    await expect(adding).rejects.toMatchObject({ code: 'closed' });
    await closing;
    expect(servers.list()).toEqual([]);
  });
});
