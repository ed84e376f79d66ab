import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedisServer } from '../../../../test-servers/redis/redis-server.mjs';
import { type RedisCommandClient, RedisStore, type RedisStoreOptions } from '../../src/connections/index.js';
import { storeContract } from './store-contract.js';

/** RedisStore against a real redis-server, through node-redis (the client the tests use). */
let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(() => server?.close());

type NodeRedis = Awaited<ReturnType<typeof connected>>;

async function connected() {
  const client = createClient({ url: server.url });
  client.on('error', () => {});
  await client.connect();
  return client;
}

/** A store and a peer, each on its own connection, under a prefix of their own. */
async function openPair(options: Omit<RedisStoreOptions, 'prefix'> = {}) {
  const prefix = `t${crypto.randomUUID()}:`;
  const [a, b, raw] = await Promise.all([connected(), connected(), connected()]);
  return {
    store: new RedisStore(a, { ...options, prefix }),
    peer: new RedisStore(b, { ...options, prefix }),
    async plantGarbage(key: string) {
      await raw.sendCommand(['SET', `${prefix}v:${key}`, '{"access_token": "cut off']);
    },
    async close() {
      await Promise.all([a.close(), b.close(), raw.close()]);
    },
  };
}

storeContract('RedisStore', () => openPair(), { garbage: 'error', bounded: (bounds) => openPair(bounds) });

describe('RedisStore', () => {
  it('keeps values under <prefix>v:<key> as JSON text, and its lock under <prefix>l:<key> only while updating', async () => {
    const client = await connected();
    try {
      const store = new RedisStore(client, { prefix: 'app1:' });
      await store.set('config:x', { url: 'https://example.com/mcp' });
      expect(await client.sendCommand(['GET', 'app1:v:config:x'])).toBe('{"url":"https://example.com/mcp"}');
      const during = await store.update('config:x', async () => client.sendCommand(['EXISTS', 'app1:l:config:x']));
      expect(during).toBe(1);
      expect(await client.sendCommand(['EXISTS', 'app1:l:config:x'])).toBe(0);
      // Another prefix is another store.
      expect(await new RedisStore(client, { prefix: 'app2:' }).get('config:x')).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it('a key of another type, or a value that is not JSON, is a StoreError; a value JSON cannot write is refused', async () => {
    const client = await connected();
    try {
      const store = new RedisStore(client, { prefix: 'garbage:' });
      await client.sendCommand(['HSET', 'garbage:v:hash', 'field', 'value']);
      await expect(store.get('hash')).rejects.toMatchObject({ name: 'StoreError', code: 'invalid_value', key: 'hash' });
      await expect(store.update('hash', () => 1)).rejects.toMatchObject({ code: 'invalid_value' });
      await expect(store.set('big', 10n)).rejects.toMatchObject({ code: 'invalid_value', key: 'big' });
      const cycle: Record<string, unknown> = {};
      cycle.self = cycle;
      await expect(store.update('cycle', () => cycle)).rejects.toMatchObject({ code: 'invalid_value' });
      expect(await client.sendCommand(['EXISTS', 'garbage:l:cycle', 'garbage:v:cycle'])).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('a lock left by a holder that vanished (its lease running) is taken once the lease ends', async () => {
    const client = await connected();
    try {
      const store = new RedisStore(client, { prefix: 'dead:', leaseMs: 400, lockWaitMs: 5_000 });
      // What a process killed mid-update leaves: its lock, with the lease it set.
      await client.sendCommand(['SET', 'dead:l:tokens', 'a-dead-holder', 'PX', '400']);
      const started = Date.now();
      expect(await store.update('tokens', () => 'recovered')).toBe('recovered');
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    } finally {
      await client.close();
    }
  });

  it('refuses lease bounds that are not whole ms above 0', () => {
    const client = { sendCommand: async () => null };
    for (const leaseMs of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new RedisStore(client, { leaseMs })).toThrow(RangeError);
    }
    expect(() => new RedisStore(client, { lockWaitMs: 0 })).toThrow('RedisStoreOptions.lockWaitMs');
  });

  it('takes a node-redis client and an ioredis-shaped client alike (call(command, ...args))', async () => {
    const client = await connected();
    try {
      // ioredis's `call`, by shape: the command, then its arguments.
      const ioredisLike: IoredisCall = {
        call: ((command: string, ...args: (string | Buffer | number)[]) =>
          client.sendCommand([command, ...args.map(String)])) as IoredisCall['call'],
      };
      const viaCall = new RedisStore(ioredisLike, { prefix: 'shape:' });
      const viaSend = new RedisStore(client, { prefix: 'shape:' });
      await viaCall.set('k', { a: 1 });
      expect(await viaSend.get('k')).toEqual({ a: 1 });
      expect(await viaCall.update('k', (current) => ({ ...(current as object), b: 2 }))).toEqual({ a: 1, b: 2 });
    } finally {
      await client.close();
    }
  });
});

/**
 * ioredis 5's `call`, as its typings declare it (overloads taking a callback,
 * an argument array, or the arguments spread), written out here so the test
 * needs no ioredis: what a real ioredis client offers must fit RedisCommandClient.
 */
interface IoredisCall {
  call(command: string, callback?: (error: Error | null, result: unknown) => void): Promise<unknown>;
  call(
    command: string,
    args: (string | Buffer | number)[],
    callback?: (error: Error | null, result: unknown) => void,
  ): Promise<unknown>;
  call(...args: [command: string, ...args: (string | Buffer | number)[]]): Promise<unknown>;
}

// Type-level checks (tsc -b runs them): both clients fit, a client of another shape does not.
export const nodeRedisFits: (client: NodeRedis) => RedisCommandClient = (client) => client;
export const ioredisFits: (client: IoredisCall) => RedisCommandClient = (client) => client;
// @ts-expect-error a client that only has `get`/`set` methods sends no raw commands (no EVAL): it does not fit.
export const wrongShape: RedisCommandClient = { get: async (_key: string) => null };
