/**
 * The Worker of stores.test.ts: a Durable Object keeping values in a DurableObjectStore
 * and a KV namespace behind a KvStore, each driven by plain requests so the test, in
 * Node, can stop workerd between two of them. `/do/<name>/<action>` reaches the object
 * named `<name>` and its storage, `/do/<name>/kv/<action>` KV from that object,
 * `/do/<name>/servers/<action>` the object's Servers set; `/kv/<action>` runs in the
 * Worker itself. Every request makes its own store over the same storage, as a Worker
 * that builds one per invocation would.
 */
import { DurableObjectStore, KvStore, Servers } from '../../packages/core/dist/connections.js';
import { Client, OAuthProvider, StreamableHttpTransport } from '../../packages/core/dist/index.js';

const REDIRECT_URI = 'http://localhost:3000/callback';

/** How long a refresh request is held before it leaves, so that concurrent invocations overlap while it runs. */
const REFRESH_DELAY_MS = 300;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** An error as JSON the test can assert: its class, message and, for a StoreError, its code and key. */
const errorJson = (error) => ({
  name: error?.name,
  message: error?.message,
  code: error?.code,
  key: error?.key,
});

/**
 * Updates whose `change` runs in the caller (the store contract in Node): `begin` runs
 * `store.update` here and answers the current value once `change` is called; `commit`, a later
 * request, hands in what `change` returned (or that it threw) and answers how the update ended.
 * Meanwhile the update holds its key here, as one awaiting a `fetch` would.
 */
const remoteChanges = new Map();

function beginUpdate(store, key) {
  const id = crypto.randomUUID();
  return new Promise((answer) => {
    const entry = {};
    entry.done = store.update(key, (current) => {
      answer({ id, current });
      return new Promise((resolve, reject) => Object.assign(entry, { resolve, reject }));
    });
    remoteChanges.set(id, entry);
    // Rejected before `change` ran (a lock timeout, a value it cannot read): the answer is the error.
    entry.done.catch((error) => {
      if (!entry.resolve) remoteChanges.delete(id);
      answer({ error: errorJson(error) });
    });
  });
}

async function commitUpdate(id, outcome) {
  const entry = remoteChanges.get(id);
  remoteChanges.delete(id);
  if (!entry?.resolve) return { error: { message: `no update ${id} is waiting` } };
  if (outcome.threw) entry.reject(new Error('change threw in the caller'));
  else entry.resolve(outcome.value);
  try {
    return { value: await entry.done };
  } catch (error) {
    return { error: errorJson(error) };
  }
}

/** get / set / append / delete on `store`, the same for both stores. */
async function storeAction(store, action, query, request) {
  const key = query.get('key') ?? '';
  if (action === 'get') return { value: await store.get(key) };
  // The body is `{ value }`: JSON has no undefined, so a body without `value` sets undefined.
  if (action === 'set') return { done: await store.set(key, (await request.json()).value) };
  if (action === 'delete') return { done: await store.delete(key) };
  if (action === 'append') {
    const item = query.get('item');
    return { value: await store.update(key, (list) => [...(Array.isArray(list) ? list : []), item]) };
  }
  if (action === 'atomic') return { atomic: store.atomic ?? true };
  if (action === 'begin') return beginUpdate(store, key);
  if (action === 'commit') return commitUpdate(query.get('id'), await request.json());
  return undefined;
}

/** The user approving at once: follows the authorization URL and answers the callback it redirects to. */
async function approve(url) {
  const response = await fetch(url, { redirect: 'manual' });
  await response.body?.cancel();
  return new URL(response.headers.get('location') ?? '', url);
}

/** `fetch`, holding back each refresh request a moment (the token request of a `refresh_token` grant). */
async function slowRefreshFetch(input, init) {
  const request = new Request(input, init);
  if (
    request.method === 'POST' &&
    new TextDecoder().decode(await request.clone().arrayBuffer()).includes('grant_type=refresh_token')
  ) {
    await sleep(REFRESH_DELAY_MS);
  }
  return fetch(request);
}

/** Calls the `echo` tool of `mcp` with a Client of its own and `store` for OAuth state; the answer's text. */
async function callWithOAuth(mcp, text, store) {
  const auth = new OAuthProvider({ store, redirectUri: REDIRECT_URI, authorize: approve, fetch: slowRefreshFetch });
  const client = new Client(new StreamableHttpTransport(mcp, { auth, standaloneStream: false }));
  try {
    await client.connect();
    return { text: (await client.callTool('echo', { text })).text };
  } finally {
    await client.close();
  }
}

/**
 * Calls `echo` on `mcp` in the session whose snapshot is under `key` (a handshake only if there
 * is none), then stores the session's snapshot there: the session outlives the client.
 */
async function callInSession(mcp, text, store, key) {
  const stored = await store.get(key);
  const transport = new StreamableHttpTransport(mcp, { standaloneStream: false, endSessionOnClose: false });
  const client = new Client(transport, stored ? { resume: stored } : {});
  try {
    await client.connect();
    const answer = (await client.callTool('echo', { text })).text;
    await store.set(key, client.session);
    return { text: answer, sessionId: client.session?.sessionId };
  } finally {
    await client.close();
  }
}

/** Two read-fetch-write increments of `key`, as one request runs them: the test sends two at once. */
const increments = {
  /** Plain storage: read, fetch `slow`, write what was read plus one. */
  plain: async (storage, key, slow) => {
    const count = (await storage.get(key)) ?? 0;
    await (await fetch(slow)).text();
    await storage.put(key, count + 1);
  },
  /** DurableObjectStore.update around the same read, fetch and write. */
  store: async (storage, key, slow) => {
    await new DurableObjectStore(storage).update(key, async (count) => {
      await (await fetch(slow)).text();
      return (count ?? 0) + 1;
    });
  },
};

/** One update holding `held` until released, and a second store's update of it giving up after `lockWaitMs`. */
async function lockWaitScenario(storage) {
  let release;
  const held = new Promise((resolve) => {
    release = resolve;
  });
  const first = new DurableObjectStore(storage).update('held', async () => {
    await held;
    return 'first';
  });
  let secondRan = false;
  const second = await new DurableObjectStore(storage, { lockWaitMs: 100 })
    .update('held', () => {
      secondRan = true;
      return 'second';
    })
    .then(
      (value) => ({ value }),
      (error) => ({ error: errorJson(error) }),
    );
  release();
  const third = await new DurableObjectStore(storage, { lockWaitMs: 100 }).update('held', (value) => `${value}, third`);
  return { first: await first, second, secondRan, third, stored: await storage.get('held') };
}

/**
 * `/do/<name>/servers/add?name=&url=` adds a server to the object's set and waits for it;
 * `/do/<name>/servers/call?name=&text=` calls its `echo` tool. The set is opened from the
 * object's storage on the first request after the object starts, as after a wake or a deploy.
 */
async function serversAction(servers, action, query) {
  const name = query.get('name') ?? '';
  if (action === 'add') await servers.add({ name, url: query.get('url') ?? '' });
  const snapshot = await servers.ready({ timeout: 10_000 });
  const server = snapshot.servers.find((one) => one.name === name);
  if (action === 'add') return { status: server?.state.status, tools: snapshot.tools.map((tool) => tool.name) };
  return { text: (await servers.get(name).callTool('echo', { text: query.get('text') ?? '' })).text };
}

export class StoreObject {
  /** The object's set of servers, opened at its first use. */
  #servers;

  constructor(ctx, env) {
    this.ctx = ctx;
    this.env = env;
  }

  servers() {
    this.#servers ??= Servers.open({
      store: new DurableObjectStore(this.ctx.storage),
      // Nobody would read a standalone GET stream between invocations.
      connection: { http: { standaloneStream: false } },
    });
    return this.#servers;
  }

  /** `/do/<name>/<action>` on the object's storage; `/do/<name>/kv/<action>` on KV, from the object (whose updates outlive a request). */
  async fetch(request) {
    const url = new URL(request.url);
    const query = url.searchParams;
    const action = url.pathname.split('/').pop();
    const storage = this.ctx.storage;
    const store = url.pathname.split('/')[3] === 'kv' ? new KvStore(this.env.KV) : new DurableObjectStore(storage);
    try {
      if (url.pathname.split('/')[3] === 'servers') {
        return Response.json(await serversAction(await this.servers(), action, query));
      }
      const answer = await storeAction(store, action, query, request);
      if (answer) return Response.json(answer);
      if (action === 'call') return Response.json(await callWithOAuth(query.get('mcp'), query.get('text'), store));
      if (action === 'session') {
        return Response.json(await callInSession(query.get('mcp'), query.get('text'), store, query.get('key')));
      }
      if (action === 'increment') {
        await increments[query.get('how')](storage, query.get('key'), query.get('slow'));
        return Response.json({ value: await storage.get(query.get('key')) });
      }
      if (action === 'lock-wait') return Response.json(await lockWaitScenario(storage));
      return Response.json({ error: { message: `no action ${action}` } }, { status: 404 });
    } catch (error) {
      return Response.json({ error: errorJson(error) }, { status: 500 });
    }
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const [, area, name, action] = url.pathname.split('/');
    if (area === 'do') return env.STORE.get(env.STORE.idFromName(name)).fetch(request);
    try {
      const answer = await storeAction(new KvStore(env.KV), name, url.searchParams, request);
      if (answer) return Response.json(answer);
      return Response.json({ error: { message: `no action ${action ?? name}` } }, { status: 404 });
    } catch (error) {
      return Response.json({ error: errorJson(error) }, { status: 500 });
    }
  },
};
