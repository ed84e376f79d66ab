import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHttpTransport } from '@mcp/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkedWorkers } from '../../../runtimes/workerd/checked-workers.js';
import { readWranglerConfig } from '../../../runtimes/workerd/wrangler-config.js';
import { startHttpServers } from '../../../test-servers/http/serve.mjs';
import { type RecordingProxy, startRecordingProxy } from '../../../test-servers/recording-proxy.mjs';
import { MAX_JOBS, MAX_QUEUE } from '../task-object.js';

interface TaskAnswer {
  taskId?: string;
  status?: string;
  statusMessage?: string;
  text?: string;
  isError?: boolean;
  forgotten?: string;
  error?: string;
}

/** Miniflare's KV type resolves to Request without @cloudflare/workers-types: the methods used. */
interface KvAccess {
  list(): Promise<{ keys: Array<{ name: string }> }>;
  get(key: string): Promise<string | null>;
}

/** The operator's SESSION_SECRET in these tests. */
const SESSION_SECRET = 'the-operators-session-secret-0123456789';
/** The bindings and compatibility date a deployment gets. */
const config = readWranglerConfig(new URL('../', import.meta.url));

let servers: Awaited<ReturnType<typeof startHttpServers>>;
/** The Worker as wrangler would deploy it (@mcp/core inlined), its object wrapped by reached-task.js. */
let bundle: string;
let persistRoot: string;
const workers = checkedWorkers();
const proxies: RecordingProxy[] = [];

beforeAll(async () => {
  bundle = await workers.bundle(new URL('./reached-task.js', import.meta.url));
  servers = await startHttpServers();
  persistRoot = mkdtempSync(join(tmpdir(), 'durable-task-'));
});
afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await servers?.close();
  if (persistRoot) rmSync(persistRoot, { recursive: true, force: true });
});

/** The 2026-07-28 task server, with a task store of its own for this test. */
const taskServer = () => `${servers.modes}/tasks-2026?run=${crypto.randomUUID()}`;

/** A recording proxy in front of `target` (the JSON-RPC method of every message), closed after the file's tests. */
async function recording(target: string): Promise<RecordingProxy> {
  const proxy = await startRecordingProxy(target);
  proxies.push(proxy);
  return proxy;
}

/** A session cookie as `POST /login` writes it (`name.expiry.hex HMAC-SHA256`), signed here under `secret`. */
function signedCookie(secret: string, name: string, expiry: number) {
  const mac = createHmac('sha256', secret).update(`${name}.${expiry}`).digest('hex');
  return `__Host-caller=${name}.${expiry}.${mac}`;
}

/**
 * The example worker in workerd, talking to `mcpUrl`; each method is one invocation. Its Durable Object
 * class is wrapped to write down every request that reaches an object (reached-task.js). `variables` add
 * to or replace the bindings (`undefined` removes one). With `persist`, the Durable Objects' storage is
 * kept on disk there, for a later Miniflare to find.
 */
function startWorker(mcpUrl: string, persist?: string, variables: Record<string, string | undefined> = {}) {
  const bindings: Record<string, string | undefined> = { MCP_URL: mcpUrl, SESSION_SECRET, ...variables };
  const started = workers.start(bundle, {
    bindings: Object.fromEntries(
      Object.entries(bindings).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
    durableObjects: config.durableObjects,
    kvNamespaces: [...config.kvNamespaces, 'REACHED'],
    compatibilityDate: config.compatibilityDate,
    ...(persist && { durableObjectsPersist: persist }),
  });
  const { mf } = started;
  const cookies = new Map<string, string>();
  /** The `Cookie` header of `name`, logged in at POST /login once (empty if the login was refused). */
  const cookie = async (name: string) => {
    const known = cookies.get(name);
    if (known !== undefined) return known;
    const response = await mf.dispatchFetch(`http://worker.test/login?name=${name}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SESSION_SECRET}` },
    });
    await response.arrayBuffer();
    const header = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    cookies.set(name, header);
    return header;
  };
  /** One request with exactly `headers` (no sign-in of its own). */
  const send = async (path: string, init: RequestInit = {}) => {
    const response = await mf.dispatchFetch(`http://worker.test${path}`, init as never);
    return {
      status: response.status,
      setCookie: response.headers.get('set-cookie'),
      answer: (await response.json()) as TaskAnswer,
    };
  };
  /** One request as `caller`, signed in with a session cookie. */
  const as = async (caller: string, path: string, init: RequestInit = {}) =>
    send(path, { ...init, headers: { ...(init.headers as Record<string, string>), cookie: await cookie(caller) } });
  const ok = async (caller: string, path: string, init?: RequestInit) => {
    const { status, answer } = await as(caller, path, init);
    expect(answer.error).toBeUndefined();
    expect(status).toBeLessThan(300);
    return answer;
  };
  const startBody = (tool: string, args: Record<string, unknown>) => ({
    method: 'POST',
    body: JSON.stringify({ tool, arguments: args }),
  });
  return {
    send,
    as,
    cookie,
    startBody,
    start: (job: string, tool: string, args: Record<string, unknown>, caller = 'ann') =>
      ok(caller, `/start?job=${job}`, startBody(tool, args)),
    collect: (job: string, caller = 'ann') => ok(caller, `/collect?job=${job}`),
    cancel: (job: string, caller = 'ann') => ok(caller, `/cancel?job=${job}`, { method: 'POST' }),
    forget: (job: string, caller = 'ann') => ok(caller, `/forget?job=${job}`, { method: 'POST' }),
    /** Every request that reached a Durable Object so far (in no order): its path and the object's id. */
    async reached(): Promise<Array<{ path: string; object: string }>> {
      const kv = (await mf.getKVNamespace('REACHED')) as unknown as KvAccess;
      const { keys } = await kv.list();
      return Promise.all(keys.map(async ({ name }) => JSON.parse((await kv.get(name)) ?? '{}')));
    },
    dispose: () => workers.stop(started),
  };
}

describe('a Worker keeping an MCP task in a Durable Object', () => {
  it('starts a task in one invocation and collects its result in later ones, on one resumed session', async () => {
    const server = await recording(taskServer());
    const worker = startWorker(server.url);

    const started = await worker.start('report', 'slow-steps', { steps: 3, stepMs: 200 });
    expect(started.taskId).toMatch(/^[0-9a-f]{32}$/);
    expect(started.status).toBe('working');

    // A later invocation finds the stored task and asks the server about it.
    const later = await worker.collect('report');
    expect(later.taskId).toBe(started.taskId);
    expect(['working', 'completed']).toContain(later.status);

    await expect
      .poll(() => worker.collect('report'), { timeout: 10_000, interval: 100 })
      .toMatchObject({
        taskId: started.taskId,
        status: 'completed',
        text: 'done after 3 steps',
        isError: false,
      });

    // The era probe on the first invocation only: the later ones resume the stored session.
    expect(server.methods.filter((method) => method === 'server/discover')).toHaveLength(1);
    expect(server.methods.slice(0, 2)).toEqual(['server/discover', 'tools/call']);
    // 2026-07-28 has no tasks/result: tasks/get carries the result once the task has completed.
    expect(server.methods.slice(2)).toEqual(server.methods.slice(2).map(() => 'tasks/get'));
  });

  it('collects, from a new workerd process, the task an earlier one started', async () => {
    const mcp = taskServer();
    const persist = join(persistRoot, 'restart');
    const first = startWorker(mcp, persist);
    const started = await first.start('report', 'slow-steps', { steps: 2, stepMs: 100 });
    expect(started.taskId).toMatch(/^[0-9a-f]{32}$/);
    await first.dispose();

    // Nothing of the first process is left but the Durable Object's storage on disk.
    const second = startWorker(mcp, persist);
    expect((await second.collect('report')).taskId).toBe(started.taskId);
    await expect
      .poll(() => second.collect('report'), { timeout: 10_000, interval: 100 })
      .toMatchObject({
        taskId: started.taskId,
        status: 'completed',
        text: 'done after 2 steps',
      });
  });

  it('cancels the stored task from a later invocation', async () => {
    const worker = startWorker(taskServer());
    const started = await worker.start('long', 'cancellable', { maxMs: 20_000 });
    expect(started.status).toBe('working');

    expect(await worker.cancel('long')).toMatchObject({ taskId: started.taskId, status: 'cancelled' });
    expect(await worker.collect('long')).toMatchObject({ taskId: started.taskId, status: 'cancelled' });
  });

  it('keeps one task per job: another job has none to collect', async () => {
    const worker = startWorker(taskServer());
    await worker.start('one', 'slow-steps', { steps: 1, stepMs: 0 });
    expect(await worker.as('ann', '/collect?job=other')).toMatchObject({
      status: 404,
      answer: { error: 'no task started' },
    });
  });
});

describe('who may reach a job', () => {
  /** Every route, as a request with `cookie` (none when undefined). */
  const everyRoute = (cookie: string | undefined): Array<[string, RequestInit]> => {
    const headers = cookie === undefined ? {} : { cookie };
    const body = JSON.stringify({ tool: 'slow-steps', arguments: { steps: 1 } });
    return [
      ['/start?job=report', { method: 'POST', headers, body }],
      ['/collect?job=report', { headers }],
      ['/cancel?job=report', { method: 'POST', headers }],
      ['/forget?job=report', { method: 'POST', headers }],
    ];
  };

  it('refuses no cookie, a forged, tampered, expired or doubled one with 401, and reaches no object', async () => {
    const worker = startWorker(taskServer());
    const ann = (await worker.cookie('ann')).split('=')[1] ?? '';
    const [, expiry, mac] = ann.split('.');
    const now = Math.floor(Date.now() / 1000);
    const refused = [
      undefined,
      // Signed under another secret.
      signedCookie('not-the-operators-secret-0123456789', 'ann', now + 3600),
      // Ann's MAC on another caller's name, or on a later expiry.
      `__Host-caller=bob.${expiry}.${mac}`,
      `__Host-caller=ann.${Number(expiry) + 3600}.${mac}`,
      // Signed under the real secret, but expired.
      signedCookie(SESSION_SECRET, 'ann', now - 1),
      // Two cookies: whoever planted one would choose who acts.
      `__Host-caller=${ann}; __Host-caller=${ann}`,
      '__Host-caller=garbage',
    ];
    for (const cookie of refused) {
      for (const [path, init] of everyRoute(cookie)) {
        const { status } = await worker.send(path, init);
        expect({ cookie, path, status }).toEqual({ cookie, path, status: 401 });
      }
    }
    expect(await worker.reached()).toEqual([]);

    // Ann's own cookie does reach her object: the record above would have shown a refused request that did.
    expect(await worker.as('ann', '/collect?job=report')).toMatchObject({ status: 404 });
    expect(await worker.reached()).toMatchObject([{ path: '/collect' }]);
    await worker.dispose();
  });

  it('answers 400 to a job name that is not 1-64 of A-Z a-z 0-9 _ -, reaching no object', async () => {
    const worker = startWorker(taskServer());
    for (const job of ['', '../report', 'bob:report', 'a%20b', 'x'.repeat(65), 'r%0A']) {
      const { status } = await worker.as('ann', `/collect?job=${job}`);
      expect({ job, status }).toEqual({ job, status: 400 });
    }
    expect(await worker.reached()).toEqual([]);
    await worker.dispose();
  });

  it("keeps a job name within its caller: bob cannot collect, cancel or forget ann's job of that name", async () => {
    const worker = startWorker(taskServer());
    const started = await worker.start('report', 'cancellable', { maxMs: 20_000 });
    expect(started.status).toBe('working');

    // Bob, signed in as himself, sees his own namespace: no job of that name.
    for (const [path, init] of everyRoute(await worker.cookie('bob')).slice(1)) {
      expect(await worker.send(path, init)).toMatchObject({ status: 404, answer: { error: 'no task started' } });
    }
    // Ann's task is untouched, still working.
    expect(await worker.collect('report')).toMatchObject({ taskId: started.taskId, status: 'working' });

    // Bob's own job of the same name is another task, and cancelling it leaves ann's running.
    const bobs = await worker.start('report', 'cancellable', { maxMs: 20_000 }, 'bob');
    expect(bobs.taskId).not.toBe(started.taskId);
    expect(await worker.cancel('report', 'bob')).toMatchObject({ taskId: bobs.taskId, status: 'cancelled' });
    expect(await worker.collect('report')).toMatchObject({ taskId: started.taskId, status: 'working' });
    await worker.cancel('report');
    await worker.dispose();
  });

  it('has no login route and takes no cookie where SESSION_SECRET is unset or too short', async () => {
    for (const secret of [undefined, 'x'.repeat(31)]) {
      const worker = startWorker(taskServer(), undefined, { SESSION_SECRET: secret });
      const login = await worker.send('/login?name=ann', {
        method: 'POST',
        headers: { authorization: `Bearer ${secret ?? ''}` },
      });
      expect(login.status).toBe(404);
      const forged = signedCookie(secret ?? '', 'ann', Math.floor(Date.now() / 1000) + 3600);
      for (const [path, init] of everyRoute(forged)) {
        expect({ secret, path, status: (await worker.send(path, init)).status }).toEqual({ secret, path, status: 401 });
      }
      expect(await worker.reached()).toEqual([]);
      await worker.dispose();
    }
  });
});

describe('bounds on what one caller can hold', () => {
  it(`answers 429 to one job more than MAX_JOBS (${MAX_JOBS} by default), and takes one again once one is forgotten`, async () => {
    const mcp = taskServer();
    const worker = startWorker(mcp, undefined, { MAX_JOBS: '2' });
    const args = { maxMs: 20_000 };
    const first = await worker.start('one', 'cancellable', args);
    await worker.start('two', 'cancellable', args);
    const over = await worker.as('ann', '/start?job=three', worker.startBody('cancellable', args));
    expect(over).toMatchObject({
      status: 429,
      answer: { error: '2 jobs are held: forget one first (POST /forget?job=…)' },
    });
    // A job that exists is not started again (its task would run on out of reach), bound or not.
    const again = await worker.as('ann', '/start?job=one', worker.startBody('cancellable', args));
    expect(again).toMatchObject({ status: 409, answer: { error: 'job one exists: forget it first' } });
    // The bound is per caller.
    await worker.start('three', 'cancellable', args, 'bob');

    // Forgetting a job cancels its task on the server, and frees its place.
    expect(await worker.forget('one')).toEqual({ forgotten: 'one' });
    const direct = new Client(new StreamableHttpTransport(mcp));
    await direct.connect();
    expect((await direct.tasks.get(first.taskId ?? '')).status).toBe('cancelled');
    await direct.close();
    expect(await worker.as('ann', '/collect?job=one')).toMatchObject({ status: 404 });
    expect((await worker.start('three', 'cancellable', args)).status).toBe('working');
    for (const job of ['two', 'three']) await worker.forget(job);
    await worker.forget('three', 'bob');
    await worker.dispose();
  });

  it(`answers 429 to one request more than MAX_QUEUE (${MAX_QUEUE} by default) holds`, async () => {
    // An MCP server whose first request stalls 2 s: the first job's start holds ann's object meanwhile.
    const created = await fetch(`${servers.faults}/faults`, {
      method: 'POST',
      body: JSON.stringify({ rules: [{ match: { times: 1 }, action: { type: 'stall', ms: 2_000 } }] }),
    });
    const scenario = (await created.json()) as { mcp: string; stats: string };
    const arrived = async () =>
      ((await (await fetch(scenario.stats)).json()) as { requests: unknown[] }).requests.length;
    const worker = startWorker(scenario.mcp, undefined, { MAX_QUEUE: '2' });
    const body = worker.startBody('echo', { text: 'hi' });

    const first = worker.as('ann', '/start?job=first', body);
    await expect.poll(arrived, { timeout: 10_000, interval: 50 }).toBe(1);
    // MAX_QUEUE is 2 here: one of these waits behind the first, the other is one too many.
    const [second, third] = await Promise.all([
      worker.as('ann', '/collect?job=second'),
      worker.as('ann', '/collect?job=third'),
    ]);
    expect([second.status, third.status].sort()).toEqual([404, 429]);
    expect((second.status === 429 ? second : third).answer.error).toBe(
      '2 requests of this caller are already running or waiting',
    );
    // Another caller's object is not held up by this one's queue; once drained, ann's takes requests again.
    expect((await worker.as('bob', '/collect?job=first')).status).toBe(404);
    await first;
    expect((await worker.as('ann', '/collect?job=second')).status).toBe(404);
    await worker.dispose();
  });
});

describe('the login route', () => {
  it('issues a cookie only to the holder of SESSION_SECRET, for a well-formed name, HttpOnly, Secure and __Host-', async () => {
    const worker = startWorker(taskServer());
    const login = (authorization: string, name = 'ann') =>
      worker.send(`/login?name=${name}`, { method: 'POST', headers: { authorization } });
    expect((await login('Bearer not-the-secret')).status).toBe(401);
    expect((await login(`Bearer ${SESSION_SECRET}x`)).status).toBe(401);
    expect((await login(`Basic ${SESSION_SECRET}`)).status).toBe(401);
    for (const name of ['..%2Fann', 'ann:report', '', 'x'.repeat(65)]) {
      expect({ name, status: (await login(`Bearer ${SESSION_SECRET}`, name)).status }).toEqual({ name, status: 400 });
    }
    const ok = await login(`Bearer ${SESSION_SECRET}`);
    expect(ok).toMatchObject({ status: 200, answer: { name: 'ann' } });
    expect(ok.setCookie?.startsWith('__Host-caller=ann.')).toBe(true);
    for (const attribute of ['Path=/', 'HttpOnly', 'Secure', 'SameSite=Lax']) expect(ok.setCookie).toContain(attribute);
    await worker.dispose();
  });
});
