import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, OAuthProvider, StreamableHttpTransport } from '@mcp/core';
import { RedisStore, type Store } from '@mcp/core/connections';
import { build, type Plugin } from 'esbuild';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthServers, startAuthServers } from '../../../../test-servers/auth/serve.mjs';
import { type RedisServer, startRedisServer } from '../../../../test-servers/redis/redis-server.mjs';
import { FileStore } from '../../src/index.js';
import { nextLineOf } from '../process-lines.js';

/**
 * The stores shared by real processes: three Node processes on one redis-server,
 * or on one directory, racing the refresh of one expired token against an
 * authorization server that rotates refresh tokens (test-servers/auth); and a
 * process killed while it holds a key's lock.
 */
/** The lease of the SIGKILL test: short, so the test waits for it. */
const LEASE_MS = 800;
/** The lease of the race: long enough that a loaded machine's refresh never outlives it. */
const RACE_LEASE_MS = 30_000;
const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** @mcp/core, its subpaths and @mcp/node-stdio from their sources, as the vitest config resolves them. */
const sourcesOfOurPackages: Plugin = {
  name: 'sources-of-our-packages',
  setup(build) {
    build.onResolve({ filter: /^@mcp\/(core|node-stdio)(\/[a-z]+)?$/ }, ({ path }) => {
      const [, pkg, subpath] = /^@mcp\/([a-z-]+)(?:\/([a-z]+))?$/.exec(path) ?? [];
      return { path: src(`../../../${pkg}/src/${subpath ? `${subpath}/` : ''}index.ts`) };
    });
  },
};

let root: string;
let script: string;
let redis: RedisServer;
let auth: AuthServers;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mcp-cross-process-'));
  script = join(root, 'store-process.mjs');
  [redis, auth] = await Promise.all([startRedisServer(), startAuthServers()]);
  // Each process runs the stores and the OAuthProvider from the sources, bundled with node-redis.
  await build({
    entryPoints: [src('./fixtures/store-process.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: script,
    logLevel: 'silent',
    plugins: [sourcesOfOurPackages],
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await Promise.all([redis?.close(), auth?.close()]);
  await rm(root, { recursive: true, force: true });
});

/** A store process, and the next line it prints. */
function storeProcess(config: Record<string, unknown>) {
  const child = spawn(process.execPath, [script, JSON.stringify(config)]);
  children.push(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, exited, next: nextLineOf(child) };
}

/** How a test opens the shared store in this process, and what a store process needs to open it. */
interface Backend {
  readonly name: string;
  open(leaseMs: number): Promise<{ store: Store; config: Record<string, unknown>; close(): Promise<void> }>;
}

const backends: Backend[] = [
  {
    name: 'RedisStore on one redis-server',
    async open(leaseMs) {
      const client = createClient({ url: redis.url });
      client.on('error', () => {});
      await client.connect();
      const prefix = `${crypto.randomUUID()}:`;
      return {
        store: new RedisStore(client, { prefix, leaseMs, lockWaitMs: 5_000 }),
        config: { store: 'redis', redisUrl: redis.url, prefix, leaseMs },
        close: async () => void (await client.close()),
      };
    },
  },
  {
    name: 'FileStore on one directory',
    async open(leaseMs) {
      const directory = join(root, crypto.randomUUID());
      return {
        store: new FileStore(directory, { leaseMs, lockWaitMs: 5_000 }),
        config: { store: 'file', directory, leaseMs },
        close: async () => {},
      };
    },
  },
];

describe.each(backends)('$name', (backend) => {
  it('three processes racing the refresh of one expired token send one token request, and all go on with the new token', async () => {
    const { store, config, close } = await backend.open(RACE_LEASE_MS);
    try {
      const scenario = await auth.createScenario();
      const { mcp, issuer } = scenario.info();
      // Signed in once, here.
      const signIn = new OAuthProvider({
        store,
        redirectUri: 'http://localhost:3000/callback',
        authorize: async (url) => {
          const response = await fetch(url, { redirect: 'manual' });
          return new URL(response.headers.get('location') ?? '', url);
        },
      });
      const client = new Client(new StreamableHttpTransport(mcp, { auth: signIn }));
      await client.connect();
      await client.close();
      const tokensKey = `tokens:${issuer}|${mcp}`;
      const signedIn = (await store.get(tokensKey)) as { access_token: string; refresh_token: string };
      // The access token expires, for the processes and at the server.
      await store.set(tokensKey, { ...signedIn, expires_at: 1 });
      scenario.expireTokens();
      const tokenRequests = () =>
        scenario.stats().requests.filter((entry) => entry.server === 'as' && entry.path.endsWith('/token'));
      const before = tokenRequests().length;

      const racers = [0, 1, 2].map(() => storeProcess({ ...config, task: 'refresh', mcp, tokensKey }));
      for (const racer of racers) expect(await racer.next()).toBe('ready');
      for (const racer of racers) racer.child.stdin.write('go\n');
      const outcomes = (await Promise.all(racers.map((racer) => racer.next()))).map(
        (line) => JSON.parse(line) as { accessToken?: string; tools?: number; error?: string },
      );

      const sent = tokenRequests().slice(before);
      expect(sent.map((entry) => [entry.form?.grant_type, entry.form?.refresh_token, entry.status])).toEqual([
        ['refresh_token', signedIn.refresh_token, 200],
      ]);
      const rotated = (await store.get(tokensKey)) as { access_token: string; refresh_token: string };
      expect(rotated.refresh_token).not.toBe(signedIn.refresh_token);
      expect(outcomes).toEqual([0, 1, 2].map(() => ({ accessToken: rotated.access_token, tools: expect.any(Number) })));
      expect(outcomes.every((outcome) => (outcome.tools ?? 0) > 0)).toBe(true);
      await Promise.all(racers.map((racer) => racer.exited));
    } finally {
      await close();
    }
  });

  it('a process killed (SIGKILL) while it holds a key is outlived: the next update runs once the lease ends', async () => {
    const { store, config, close } = await backend.open(LEASE_MS);
    try {
      await store.set('tokens', { access_token: 'before' });
      const holder = storeProcess({ ...config, task: 'hold', key: 'tokens' });
      expect(await holder.next()).toBe('inside');
      holder.child.kill('SIGKILL');
      await holder.exited;
      const started = Date.now();
      const after = await store.update('tokens', (current) => ({ ...(current as object), access_token: 'after' }));
      expect(after).toEqual({ access_token: 'after' });
      // It waited for the dead holder's lease, and not for ever.
      expect(Date.now() - started).toBeGreaterThanOrEqual(LEASE_MS / 2);
      expect(await store.get('tokens')).toEqual({ access_token: 'after' });
      if (config.store === 'file') {
        expect(await readdir(config.directory as string)).toEqual(
          expect.not.arrayContaining([expect.stringMatching(/\.lock$/)]),
        );
      }
    } finally {
      await close();
    }
  });
});
