import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeContract } from '../../packages/core/test/connections/store-contract.js';
import { type AuthScenario, type AuthServers, startAuthServers } from '../../test-servers/auth/serve.mjs';
import { startHttpServers } from '../../test-servers/http/serve.mjs';
import { checkedWorkers } from './checked-workers.js';
import { remoteStore, type SendToWorker } from './remote-store.js';

/** What the Worker answers: a value, a tool's text, or an error as JSON. */
interface Answer {
  value?: unknown;
  text?: string;
  sessionId?: string;
  atomic?: boolean;
  error?: { name?: string; message?: string; code?: string; key?: string };
  [field: string]: unknown;
}

/** Miniflare's KV type resolves to Request without @cloudflare/workers-types: the methods used. */
interface KvWriter {
  put(key: string, value: string): Promise<void>;
  list(): Promise<{ keys: Array<{ name: string }> }>;
}

const workers = checkedWorkers();
/** stores-worker.js with @mcp/core's dist inlined, as wrangler would deploy it. */
let bundle: string;
let persistRoot: string;
let authServers: AuthServers;
let httpServers: Awaited<ReturnType<typeof startHttpServers>>;
/** A Node server that answers every request after 200 ms: a subrequest the object awaits. */
let slowServer: Server;
let slow: string;

beforeAll(async () => {
  bundle = await workers.bundle(new URL('./stores-worker.js', import.meta.url));
  persistRoot = mkdtempSync(join(tmpdir(), 'workerd-stores-'));
  [authServers, httpServers] = await Promise.all([startAuthServers(), startHttpServers()]);
  slowServer = createServer((_request, response) => {
    setTimeout(() => response.end('ok'), 200);
  });
  await new Promise<void>((resolve) => slowServer.listen(0, '127.0.0.1', resolve));
  slow = `http://127.0.0.1:${(slowServer.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await new Promise((resolve) => slowServer?.close(resolve));
  await Promise.all([authServers?.close(), httpServers?.close()]);
  if (persistRoot) rmSync(persistRoot, { recursive: true, force: true });
});

/** stores-worker.js in workerd; with `persist`, its Durable Objects' storage is kept there for a later workerd. */
function startWorker(persist?: string) {
  const started = workers.start(bundle, {
    durableObjects: { STORE: 'StoreObject' },
    kvNamespaces: ['KV'],
    ...(persist && { durableObjectsPersist: persist }),
  });
  /** One invocation; `ok` also asserts it succeeded. */
  const send = async (path: string, init?: RequestInit) => {
    const response = await started.mf.dispatchFetch(`http://worker.test${path}`, init as never);
    return { status: response.status, answer: (await response.json()) as Answer };
  };
  const ok = async (path: string, init?: RequestInit) => {
    const { status, answer } = await send(path, init);
    expect(answer.error).toBeUndefined();
    expect(status).toBe(200);
    return answer;
  };
  const query = (params: Record<string, string>) => new URLSearchParams(params).toString();
  return {
    send,
    ok,
    get: async (area: string, key: string) => (await ok(`${area}/get?${query({ key })}`)).value,
    set: (area: string, key: string, value: unknown) =>
      ok(`${area}/set?${query({ key })}`, { method: 'POST', body: JSON.stringify({ value }) }),
    append: async (area: string, key: string, item: string) =>
      (await ok(`${area}/append?${query({ key, item })}`)).value,
    /** Calls `echo` on the OAuth-protected `mcp` in object `user`, its tokens in that object's store. */
    call: (user: string, mcp: string, text: string) => ok(`/do/${user}/call?${query({ mcp, text })}`),
    /** Calls `echo` on `mcp` in the session whose snapshot object `user` keeps under `key`. */
    inSession: (user: string, mcp: string, text: string, key: string) =>
      ok(`/do/${user}/session?${query({ mcp, text, key })}`),
    kv: async () => (await started.mf.getKVNamespace('KV')) as unknown as KvWriter,
    dispose: () => workers.stop(started),
  };
}

/** A recording proxy in front of a sessionful reference server; `methods` counts what reached it. */
async function sessionServer() {
  const response = await fetch(`${httpServers.faults}/faults`, {
    method: 'POST',
    body: JSON.stringify({ inner: 'stateful', rules: [] }),
  });
  const { mcp, stats } = (await response.json()) as { mcp: string; stats: string };
  return {
    mcp,
    methods: async () => ((await (await fetch(stats)).json()) as { methods: Record<string, number> }).methods,
  };
}

/** The token requests that reached the scenario's authorization server, by grant type. */
const grants = (scenario: AuthScenario) =>
  scenario
    .stats()
    .requests.filter((request) => request.server === 'as' && request.form?.grant_type)
    .map((request) => request.form?.grant_type);

/** The bearer tokens the MCP server accepted for tools/call, in order. */
const acceptedTokens = (scenario: AuthScenario) =>
  scenario
    .stats()
    .requests.filter(
      (request) => request.server === 'mcp' && request.rpcMethod === 'tools/call' && request.status === 200,
    )
    .map((request) => request.headers.authorization);

describe('DurableObjectStore in workerd', () => {
  it('keeps configs, a session snapshot and OAuth tokens through a restart of workerd on the same storage', async () => {
    const persist = join(persistRoot, 'restart');
    const session = await sessionServer();
    const scenario = await authServers.createScenario();
    const { mcp: protectedMcp } = scenario.info();
    const config = { name: 'docs', url: session.mcp, headers: { 'x-team': 'blue' } };

    const first = startWorker(persist);
    await first.set('/do/ann', 'mcp:config:docs', config);
    expect(await first.append('/do/ann', 'mcp:configs', 'docs')).toEqual(['docs']);
    const opened = await first.inSession('ann', session.mcp, 'one', 'mcp:session:docs');
    expect(opened.text).toBe('one');
    expect((await first.call('ann', protectedMcp, 'one')).text).toBe('one');
    expect(grants(scenario)).toEqual(['authorization_code']);
    const snapshot = await first.get('/do/ann', 'mcp:session:docs');
    expect(snapshot).toMatchObject({ sessionId: opened.sessionId, serverInfo: { name: 'mcp-reference-server' } });
    // The OAuthProvider lists every key it wrote (tokens among them) under `keys`.
    const oauthKeys = (await first.get('/do/ann', 'keys')) as string[];
    expect(oauthKeys.some((key) => key.startsWith('tokens:'))).toBe(true);
    const oauthValues = await Promise.all(oauthKeys.map((key) => first.get('/do/ann', key)));
    await first.dispose();

    // Nothing of the first workerd is left but the object's storage on disk.
    const second = startWorker(persist);
    expect(await second.get('/do/ann', 'mcp:config:docs')).toEqual(config);
    expect(await second.get('/do/ann', 'mcp:configs')).toEqual(['docs']);
    expect(await second.get('/do/ann', 'mcp:session:docs')).toEqual(snapshot);
    expect(await second.get('/do/ann', 'keys')).toEqual(oauthKeys);
    expect(await Promise.all(oauthKeys.map((key) => second.get('/do/ann', key)))).toEqual(oauthValues);

    // They work: the session resumes with no handshake, the tokens are used with no new grant.
    expect(await second.inSession('ann', session.mcp, 'two', 'mcp:session:docs')).toEqual({
      text: 'two',
      sessionId: opened.sessionId,
    });
    expect(await session.methods()).toMatchObject({ 'server/discover': 1, initialize: 1, 'tools/call': 2 });
    expect((await second.call('ann', protectedMcp, 'two')).text).toBe('two');
    expect(grants(scenario)).toEqual(['authorization_code']);
    expect(scenario.stats().requests.filter((request) => request.path.endsWith('/authorize'))).toHaveLength(1);
    await scenario.close();
  });

  it('lets one of two invocations racing a refresh reach the authorization server; both end with the new token', async () => {
    const scenario = await authServers.createScenario();
    const { mcp } = scenario.info();
    const worker = startWorker();
    expect((await worker.call('bob', mcp, 'first')).text).toBe('first');
    const [oldToken] = acceptedTokens(scenario);
    expect(oldToken).toMatch(/^Bearer /);

    // The server now refuses the token; each invocation has its own Client, OAuthProvider and store.
    scenario.expireTokens();
    const answers = await Promise.all([worker.call('bob', mcp, 'one'), worker.call('bob', mcp, 'two')]);

    expect(answers.map((answer) => answer.text)).toEqual(['one', 'two']);
    expect(grants(scenario)).toEqual(['authorization_code', 'refresh_token']);
    const [, ...after] = acceptedTokens(scenario);
    expect(after).toHaveLength(2);
    expect(after[0]).not.toBe(oldToken);
    expect(after[1]).toBe(after[0]);
    await scenario.close();
  });

  it('excludes concurrent updates across a fetch, where plain storage calls lose one', async () => {
    const worker = startWorker();
    const increment = (how: string) => worker.ok(`/do/carl/increment?how=${how}&key=${how}&slow=${slow}`);
    // Input gates hold other requests back only while a storage call runs, not while the object
    // awaits a subrequest: both requests read 0 before either writes.
    await Promise.all([increment('plain'), increment('plain')]);
    expect(await worker.get('/do/carl', 'plain')).toBe(1);
    await Promise.all([increment('store'), increment('store')]);
    expect(await worker.get('/do/carl', 'store')).toBe(2);
  });

  it('fails an update that waits past lockWaitMs with a StoreError, never runs its change, and goes on', async () => {
    const worker = startWorker();
    expect(await worker.ok('/do/dora/lock-wait')).toEqual({
      first: 'first',
      second: {
        error: {
          name: 'StoreError',
          code: 'lock_timeout',
          key: 'held',
          message: 'an earlier update of held ran for more than 100 ms (lockWaitMs)',
        },
      },
      secondRan: false,
      third: 'first, third',
      stored: 'first, third',
    });
  });
});

describe('KvStore in workerd', () => {
  it('round-trips configs as JSON, and says its update is not atomic', async () => {
    const worker = startWorker();
    const config = { name: 'docs', url: 'https://docs.example/mcp' };
    expect((await worker.ok('/kv/atomic')).atomic).toBe(false);
    await worker.set('/kv', 'mcp:config:docs', config);
    expect(await worker.get('/kv', 'mcp:config:docs')).toEqual(config);
    // Within one isolate, updates of a key run one at a time: neither append is lost.
    const appended = await Promise.all([
      worker.append('/kv', 'mcp:configs', 'docs'),
      worker.append('/kv', 'mcp:configs', 'search'),
    ]);
    expect(appended).toEqual([['docs'], ['docs', 'search']]);
    await worker.ok('/kv/delete?key=mcp:config:docs');
    expect(await worker.get('/kv', 'mcp:config:docs')).toBeUndefined();
    // Across isolates and locations nothing excludes them, and a write may take a minute to be seen
    // elsewhere; Miniflare runs one isolate over one local namespace, so neither can be shown here.
  });

  it('keeps a key KV would refuse under its hash, and a key that looks like a hash apart from it', async () => {
    const worker = startWorker();
    const long = `mcp:config:${'k'.repeat(600)}`;
    await worker.set('/kv', long, 'long');
    await worker.set('/kv', '.', 'dot');
    expect(await worker.get('/kv', long)).toBe('long');
    expect(await worker.get('/kv', '.')).toBe('dot');
    const kv = await worker.kv();
    const [hashed] = (await kv.list()).keys.map((key) => key.name).filter((name) => name.startsWith('~'));
    expect(hashed).toMatch(/^~[\w-]{43}$/);
    // A key written as the hash itself is hashed in turn, so it does not overwrite the long key.
    await worker.set('/kv', hashed ?? '', 'impostor');
    expect(await worker.get('/kv', long)).toBe('long');
    expect(await worker.get('/kv', hashed ?? '')).toBe('impostor');
  });
});

describe('a set of servers in a Durable Object', () => {
  it('comes back after workerd restarts on the same storage with no initialize and no server/discover', async () => {
    const persist = join(persistRoot, 'servers');
    const session = await sessionServer();
    const first = startWorker(persist);
    const added = await first.ok(`/do/eve/servers/add?${new URLSearchParams({ name: 'docs', url: session.mcp })}`);
    expect(added).toMatchObject({ status: 'ready', tools: expect.arrayContaining(['echo']) });
    expect((await first.ok('/do/eve/servers/call?name=docs&text=one')).text).toBe('one');
    expect(await session.methods()).toMatchObject({ 'server/discover': 1, initialize: 1, 'tools/call': 1 });
    await first.dispose();

    // As after hibernation or a deploy: a new workerd, the object's storage on disk, nothing in memory.
    const second = startWorker(persist);
    expect((await second.ok('/do/eve/servers/call?name=docs&text=two')).text).toBe('two');
    const methods = await session.methods();
    expect(methods['server/discover']).toBe(1);
    expect(methods.initialize).toBe(1);
    expect(methods['tools/call']).toBe(2);
  });
});

/** The contract's Durable Object stores: an object of its own per test, in one workerd started at the first. */
let contractWorker: ReturnType<typeof startWorker> | undefined;
const sendToContractWorker: SendToWorker = async (path, init) => {
  contractWorker ??= startWorker();
  return (await contractWorker.send(path, init)).answer;
};
let contractObjects = 0;

storeContract('DurableObjectStore in workerd', async () => {
  const area = `/do/contract-${++contractObjects}`;
  // Two stores on one object, as two invocations reaching it make them.
  return { store: remoteStore(sendToContractWorker, area), peer: remoteStore(sendToContractWorker, area) };
});

// A workerd of its own per test: one KV namespace serves every object. No peer: KV's update excludes
// nothing beyond the isolate (the one isolate Miniflare runs would make a peer pass when it should not).
storeContract(
  'KvStore in workerd',
  async () => {
    const worker = startWorker();
    const send: SendToWorker = async (path, init) => (await worker.send(path, init)).answer;
    return {
      store: remoteStore(send, '/do/contract/kv', false),
      plantGarbage: async (key: string) => (await worker.kv()).put(key, '{not json'),
      close: worker.dispose,
    };
  },
  { garbage: 'error' },
);
