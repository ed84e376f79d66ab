import { type Connection, MemoryStore, type Servers } from '@mcp/core/connections';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServers } from '../../../test-servers/http/serve.mjs';
import { type RecordingProxy, startRecordingProxy } from '../../../test-servers/recording-proxy.mjs';
import type { Held } from '../src/held.js';
import { addMissing, ownSet } from '../src/mcp-provider.js';
import { ownConnection } from '../src/use-mcp.js';

// What the provider's set and useMcp(config)'s connection go through in React:
// the effect's acquire() and its cleanup's release(), in StrictMode's order
// (acquire, release, acquire in one go) and at a real unmount, against a real
// server whose door counts the handshakes.

let http: { readonly modes: string; close(): Promise<void> };
let proxy: RecordingProxy;
/** The holders of the test, as what they hold now. */
const held: { readonly current: Servers | Connection | undefined }[] = [];
/** Everything the holders made, to wait for each close to finish before the server goes. */
const made: (Servers | Connection)[] = [];

beforeAll(async () => {
  http = await startHttpServers();
});
afterAll(() => http?.close());
afterEach(async () => {
  for (const one of held.splice(0)) {
    const current = one.current;
    if (current) made.push(current);
  }
  // close() of a set already closed returns at once: wait for its connections' own closes.
  for (const one of made.splice(0)) {
    await one.close();
    if ('list' in one) await Promise.all(one.list().map((connection) => connection.close({ keepSession: true })));
  }
  await proxy?.close();
});

/** `held`, its current value kept for the clean-up. */
function keep<T extends Servers | Connection>(one: Held<T>): Held<T> {
  held.push(one);
  one.subscribe(() => {
    if (one.current && !made.includes(one.current)) made.push(one.current);
  });
  return one;
}

async function counted(): Promise<RecordingProxy> {
  proxy = await startRecordingProxy(`${http.modes}/stateful`);
  return proxy;
}

/** Past the tick on which a release closes. */
const nextTick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("the provider's own set", () => {
  it("keeps one set and one connection through StrictMode's release and acquire", async () => {
    const door = await counted();
    const set = keep(ownSet(() => ({ store: new MemoryStore() })));
    set.acquire();
    const first = set.current;
    set.release();
    set.acquire();
    expect(set.current).toBe(first);
    await set.current?.add({ name: 'notes', url: door.url });
    await set.current?.ready();
    await nextTick();
    expect(set.current).toBe(first);
    expect(set.current?.getSnapshot().closed).toBe(false);
    expect(set.current?.get('notes')?.getSnapshot().state.status).toBe('ready');
    expect(door.count('initialize')).toBe(1);
  });

  it('closes a tick after the last release, and tells its listeners', async () => {
    const door = await counted();
    const set = keep(ownSet(() => ({})));
    let told = 0;
    set.subscribe(() => {
      told += 1;
    });
    set.acquire();
    const made = set.current as Servers;
    const notes = await made.add({ name: 'notes', url: door.url });
    await made.ready();
    set.release();
    expect(made.getSnapshot().closed).toBe(false);
    await nextTick();
    expect(set.current).toBeUndefined();
    expect(made.getSnapshot().closed).toBe(true);
    expect(notes.getSnapshot().state.status).toBe('closed');
    expect(told).toBeGreaterThan(0);
  });

  it('makes a new set when acquired after it closed, resuming the stored sessions with no handshake', async () => {
    const door = await counted();
    const store = new MemoryStore();
    const set = keep(ownSet(() => ({ store })));
    set.acquire();
    const first = set.current as Servers;
    await first.add({ name: 'notes', url: door.url });
    await first.ready();
    set.release();
    await nextTick();
    expect(first.getSnapshot().closed).toBe(true);

    set.acquire();
    const second = set.current as Servers;
    expect(second).not.toBe(first);
    await second.restore();
    const snapshot = await second.ready();
    expect(snapshot.servers.map((server) => [server.name, server.state.status])).toEqual([['notes', 'ready']]);
    expect(door.count('initialize')).toBe(1);
  });

  it('adds each of its configs once, and tells onError of one it refuses', async () => {
    const door = await counted();
    const refused: Error[] = [];
    const configs = [
      { name: 'notes', url: door.url },
      { name: 'NOTES', url: door.url },
      { name: 'broken', url: 'not a url' },
    ];
    const set = keep(ownSet(() => ({ configs, options: { onError: (error) => refused.push(error) } })));
    set.acquire();
    await expect.poll(() => refused.length).toBe(1);
    const snapshot = await (set.current as Servers).ready();
    expect(snapshot.servers.map((server) => [server.name, server.state.status])).toEqual([['notes', 'ready']]);
    expect(refused[0]?.message).toMatch(/"broken" is not us/);
    expect(door.count('initialize')).toBe(1);
  });

  it('adds a config once when the mount and the configs effect both add it', async () => {
    const door = await counted();
    const refused: Error[] = [];
    const configs = [{ name: 'notes', url: door.url }];
    const set = keep(ownSet(() => ({ configs, options: { onError: (error) => refused.push(error) } })));
    set.acquire();
    await addMissing(set.current as Servers, configs);
    await expect.poll(() => set.current?.get('notes')?.getSnapshot().state.status).toBe('ready');
    expect(refused).toEqual([]);
    expect(door.count('initialize')).toBe(1);
  });

  it('adds its configs again to a set made again with no store', async () => {
    const door = await counted();
    const set = keep(ownSet(() => ({ configs: [{ name: 'notes', url: door.url }] })));
    set.acquire();
    await (set.current as Servers).ready();
    await expect.poll(() => set.current?.get('notes')?.getSnapshot().state.status).toBe('ready');
    set.release();
    await nextTick();
    set.acquire();
    await expect.poll(() => set.current?.get('notes')?.getSnapshot().state.status).toBe('ready');
  });

  it('hands the set to whoever asked for it before it was made (a child effect runs before the provider)', async () => {
    const set = keep(ownSet(() => ({})));
    const asked = set.whenMade();
    set.acquire();
    expect(await asked).toBe(set.current);
  });
});

describe("useMcp(config)'s own connection", () => {
  it("opens one connection through StrictMode's release and acquire", async () => {
    const door = await counted();
    const own = keep(ownConnection({ name: 'notes', url: door.url }, undefined));
    own.acquire();
    const first = own.current;
    own.release();
    own.acquire();
    expect(own.current).toBe(first);
    await own.current?.connect();
    await nextTick();
    expect(own.current?.getSnapshot().state.status).toBe('ready');
    expect(door.count('initialize')).toBe(1);
  });

  it('closes for good a tick after the component unmounts: nothing reconnects', async () => {
    const door = await counted();
    const own = keep(ownConnection({ name: 'notes', url: door.url }, () => ({ reconnect: { baseDelayMs: 1 } })));
    own.acquire();
    const connection = own.current as Connection;
    await connection.connect();
    own.release();
    await nextTick();
    expect(own.current).toBeUndefined();
    expect(connection.getSnapshot().state.status).toBe('closed');
    const sent = door.methods.length;
    await nextTick();
    expect(door.methods.length).toBe(sent);
  });

  it('throws the ConnectionError of a config that is not usable from acquire(), making nothing', () => {
    const own = keep(ownConnection({ name: 'bad', url: 'not a url' }, undefined));
    expect(() => own.acquire()).toThrow(/`url` is not a URL/);
    expect(own.current).toBeUndefined();
  });
});
