import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHttpTransport } from '@mcp/core';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkedWorkers } from '../../../runtimes/workerd/checked-workers.js';
import { readWranglerConfig } from '../../../runtimes/workerd/wrangler-config.js';
import { type AuthServers, type RecordedAuthRequest, startAuthServers } from '../../../test-servers/auth/serve.mjs';
import { startHttpServers } from '../../../test-servers/http/serve.mjs';
import { type MockModel, type MockScript, startMockModel } from '../../../test-servers/mock-model/serve.mjs';
import { type RecordingProxy, startRecordingProxy } from '../../../test-servers/recording-proxy.mjs';
import {
  MAX_BODY_BYTES,
  MAX_MESSAGE_CHARS,
  MAX_QUEUE,
  MAX_STEPS,
  MAX_TURN_MS,
  RATE_PER_MINUTE,
} from '../agent-object.js';
import { MAX_TASKS } from '../background-tools.js';
import { MAX_CREDENTIAL_CHARS } from '../identity.js';
import { MAX_LOGIN_BODY_BYTES } from '../login.js';
import { MIN_SECRET_CHARS, SESSION_COOKIE, SESSION_TTL_SECONDS, sessionKey, signSession } from '../session-cookie.js';
import { type AccessTeam, startAccessTeam, unsignedToken } from './access-team.js';

/** What `GET /servers` and `POST /servers` say of one server. */
interface ServerView {
  name: string;
  url: string;
  status: string;
  authorize?: string;
  error?: string;
  tools: string[];
}

interface AgentAnswer {
  text?: string;
  finishReason?: string;
  steps?: number;
  toolCalls?: string[];
  /** Where to sign in, by server name. */
  authorize?: Record<string, string>;
  authorized?: boolean;
  servers?: ServerView[];
  server?: ServerView;
  removed?: string;
  error?: string;
}

/** Miniflare's KV type resolves to Request without @cloudflare/workers-types: the methods used. */
interface KvAccess {
  list(): Promise<{ keys: Array<{ name: string }> }>;
  get(key: string): Promise<string | null>;
}

interface TaskReport {
  taskId: string;
  tool: string;
  status: string;
  text?: string;
  error?: string;
}

const MODEL_KEY = 'model-key';
const WORKER = 'https://agent.test';
/** The operator's SESSION_SECRET in these tests. */
const SESSION_SECRET = 'a-session-secret-for-the-tests-0123456789';
/** The bindings and compatibility date a deployment gets. */
const config = readWranglerConfig(new URL('../', import.meta.url));

let servers: Awaited<ReturnType<typeof startHttpServers>>;
let auth: AuthServers;
let model: MockModel;
let team: AccessTeam;
let bundle: string;
let scratch: string;
const workers = checkedWorkers();
let shared: { server: Awaited<ReturnType<typeof taskServer>>; worker: Worker };
const proxies: RecordingProxy[] = [];

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'worker-agent-'));
  // The deployed Worker, its objects wrapped to record every request that reaches one (reached-agent.js).
  bundle = await workers.bundle(new URL('./reached-agent.js', import.meta.url));
  [servers, auth, model, team] = await Promise.all([
    startHttpServers(),
    startAuthServers(),
    startMockModel({ apiKey: MODEL_KEY }),
    startAccessTeam(),
  ]);
  // One workerd for the tests that need no restart (a workerd start takes seconds on two cores);
  // each test has users of its own, so its own Durable Objects and MCP sessions.
  const server = await taskServer();
  shared = { server, worker: startWorker(server.url) };
});
afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await Promise.all([servers?.close(), auth?.close(), model?.close(), team?.close()]);
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});
beforeEach(() => {
  model.requests.length = 0;
  shared.server.methods.length = 0;
  shared.server.sessions.length = 0;
  shared.server.forgotten.clear();
  shared.server.unavailable.clear();
});

/** A recording proxy in front of `target`, closed after the file's tests. */
async function recording(target: string): Promise<RecordingProxy> {
  const proxy = await startRecordingProxy(target);
  proxies.push(proxy);
  return proxy;
}

/** The 2025-11-25 task server (sessions; one task store per session) behind a recording proxy. */
const taskServer = () => recording(`${servers.modes}/tasks-2025`);

/**
 * The bundled agent in workerd, for the MCP server at `mcpUrl`; each request is one invocation.
 * Both sign-ins are on (the test Access team, and session cookies); `variables` add to or
 * replace the bindings (`undefined` removes one). With `persist`, Durable Object storage is
 * kept on disk there, for a later Miniflare to find.
 */
function startWorker(mcpUrl: string, persist?: string, variables: Record<string, string | undefined> = {}) {
  const bindings: Record<string, string | undefined> = {
    MCP_URL: mcpUrl,
    MODEL_BASE_URL: model.url,
    MODEL_API_KEY: MODEL_KEY,
    MODEL_ID: 'mock-agent',
    ACCESS_TEAM_DOMAIN: team.domain,
    ACCESS_AUD: team.audience,
    SESSION_SECRET,
    // The task tests poll a user's agent many times a minute.
    RATE_PER_MINUTE: '1000',
    // Users may add the test servers (on loopback, which the default policy refuses); main and two more.
    SERVER_ORIGINS: new URL(servers.modes).origin,
    MAX_SERVERS: '3',
    ...variables,
  };
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
  const send = async (url: string, init?: RequestInit) => {
    const response = await mf.dispatchFetch(url, init as never);
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      setCookie: response.headers.get('set-cookie'),
      answer: (await response.json()) as AgentAnswer,
    };
  };
  /** Logs `user` in at POST /login, once; the `Cookie` header that says so. */
  const cookie = async (user: string) => {
    const known = cookies.get(user);
    if (known) return known;
    const response = await mf.dispatchFetch(`${WORKER}/login`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SESSION_SECRET}` },
      body: JSON.stringify({ user }),
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const header = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    cookies.set(user, header);
    return header;
  };
  /** A request as `user` (signed in with a session cookie). */
  const as = async (user: string, url: string, init: RequestInit = {}) =>
    send(url, { ...init, headers: { ...(init.headers as Record<string, string>), cookie: await cookie(user) } });
  const chat = (user: string, message: string) =>
    as(user, `${WORKER}/chat`, { method: 'POST', body: JSON.stringify({ message }) });
  return {
    send,
    cookie,
    as,
    chat,
    /** `POST /servers` as `user` with `config` (sent as it is: a test may send anything). */
    addServer: (user: string, config: unknown) =>
      as(user, `${WORKER}/servers`, { method: 'POST', body: JSON.stringify(config) }),
    /** The servers `user` holds, as `GET /servers` answers. */
    async serversOf(user: string): Promise<ServerView[]> {
      const { status, answer } = await as(user, `${WORKER}/servers`);
      expect(status).toBe(200);
      return answer.servers ?? [];
    },
    removeServer: (user: string, name: string) => as(user, `${WORKER}/servers/${name}`, { method: 'DELETE' }),
    /** One message that must succeed. */
    async ask(user: string, message: string) {
      const { status, answer } = await chat(user, message);
      expect(answer.error).toBeUndefined();
      expect(status).toBe(200);
      return answer;
    },
    /** Every request that reached a Durable Object so far (in no order): its path and the object's id. */
    async reached(): Promise<Array<{ key: string; path: string; object: string }>> {
      const kv = (await mf.getKVNamespace('REACHED')) as unknown as KvAccess;
      const { keys } = await kv.list();
      return Promise.all(keys.map(async ({ name }) => ({ key: name, ...JSON.parse((await kv.get(name)) ?? '{}') })));
    },
    /** The id of the one object `request` reached. */
    async objectOf(request: () => Promise<{ status: number }>): Promise<string | undefined> {
      const seen = new Set((await this.reached()).map((entry) => entry.key));
      expect((await request()).status).toBe(200);
      const added = (await this.reached()).filter((entry) => !seen.has(entry.key));
      expect(added).toHaveLength(1);
      return added[0]?.object;
    },
    dispose: () => workers.stop(started),
  };
}

/** The tool results the model was given in its last request. */
function lastToolMessages(): string[] {
  const messages = model.requests.at(-1)?.body?.messages ?? [];
  return messages.filter((message) => message.role === 'tool').map((message) => String(message.content));
}

/** The task reports of the last `background_check` the model read (the last tool result of that step). */
function lastTaskReports(): TaskReport[] {
  const content = lastToolMessages().at(-1);
  return (JSON.parse(content ?? '{}') as { tasks: TaskReport[] }).tasks;
}

type Worker = ReturnType<typeof startWorker>;

/** One invocation in which the model starts `slow-steps` in the background (taskScript); its task id. */
async function startReport(worker: Worker, user: string): Promise<string> {
  const answer = await worker.ask(user, 'start the report');
  expect(answer.toolCalls).toEqual(['background_start']);
  const [output] = lastToolMessages();
  const { taskId, status } = JSON.parse(output ?? '{}') as { taskId: string; status: string };
  expect(taskId).toEqual(expect.any(String));
  expect(status).toBe('working');
  return taskId;
}

/** Invocations in which the model checks the tasks (taskScript), until a report says one ended; those reports. */
async function checkUntilEnded(worker: Worker, user: string): Promise<TaskReport[]> {
  let reports: TaskReport[] = [];
  const ended = async () => {
    await worker.ask(user, 'check the report');
    reports = lastTaskReports();
    return reports.some((report) => report.status !== 'working');
  };
  await expect.poll(ended, { timeout: 10_000, interval: 200 }).toBe(true);
  return reports;
}

const echoScript: MockScript = [
  { when: { last: 'user', userSays: 'echo' }, call: [{ tool: 'echo', args: { text: 'hello from the model' } }] },
  { when: { last: 'user', userSays: 'break' }, call: [{ tool: 'echo', args: { wrong: 1 } }] },
  { when: { last: 'tool' }, reply: 'The tool said: {{tool}}' },
];

/** What the model reads back from `echo`: the result's content parts as JSON. */
const ECHOED = JSON.stringify([{ type: 'text', text: 'hello from the model' }]);

const taskScript: MockScript = [
  {
    when: { last: 'user', userSays: 'start' },
    call: [{ tool: 'background_start', args: { tool: 'slow-steps', arguments: { steps: 3, stepMs: 150 } } }],
  },
  { when: { last: 'user', userSays: 'check' }, call: [{ tool: 'background_check' }] },
  {
    when: { last: 'user', userSays: 'both' },
    call: [
      { tool: 'background_start', args: { tool: 'slow-steps', arguments: { steps: 3, stepMs: 150 } } },
      { tool: 'background_check' },
    ],
  },
  { when: { last: 'tool' }, reply: 'Tasks: {{tool}}' },
];

describe('an agent Worker: AI SDK tool loop over MCP, state in a Durable Object', () => {
  it('resumes the stored MCP session in later invocations, and the tool result reaches the model', async () => {
    model.setScript(echoScript);
    const { server, worker } = shared;

    const first = await worker.ask('ann', 'please echo');
    expect(first).toEqual({ text: `The tool said: ${ECHOED}`, finishReason: 'stop', steps: 2, toolCalls: ['echo'] });
    // The MCP content parts, as @ai-sdk/openai-compatible writes a tool's content output.
    expect(lastToolMessages()).toEqual([ECHOED]);

    const second = await worker.ask('ann', 'echo once more');
    expect(second.text).toBe(`The tool said: ${ECHOED}`);

    // One handshake: the second invocation resumed the stored snapshot.
    expect(server.count('initialize')).toBe(1);
    expect(server.count('notifications/initialized')).toBe(1);
    expect(server.count('tools/call')).toBe(2);

    // The model was offered the server's tools with their input schemas verbatim, and the agent's own two.
    const direct = new Client(new StreamableHttpTransport(`${servers.modes}/tasks-2025`));
    await direct.connect();
    const listed = await direct.listTools();
    await direct.close();
    const offered = model.requests[0]?.body?.tools ?? [];
    expect(offered.map((tool) => tool.function.name).sort()).toEqual(
      [...listed.map((tool) => tool.name), 'background_check', 'background_start'].sort(),
    );
    for (const tool of listed) {
      expect(offered.find((entry) => entry.function.name === tool.name)?.function.parameters).toEqual(tool.inputSchema);
    }
    expect(model.requests.map((request) => [request.authorization, request.body?.model])).toEqual(
      Array(4).fill([`Bearer ${MODEL_KEY}`, 'mock-agent']),
    );
  });

  it('renews a session the server forgot, and later invocations resume the new one', async () => {
    model.setScript(echoScript);
    const { server, worker } = shared;
    await worker.ask('amy', 'please echo');
    const old = server.sessions.at(-1) ?? '';
    expect(old).not.toBe('');

    server.forgotten.add(old);
    expect((await worker.ask('amy', 'echo after the server forgot')).text).toBe(`The tool said: ${ECHOED}`);
    expect(server.count('initialize')).toBe(2);
    const renewed = server.sessions.at(-1);
    expect(renewed).not.toBe(old);

    // The renewed snapshot was stored: the next invocation goes straight to it.
    const before = server.sessions.length;
    await worker.ask('amy', 'echo once more');
    expect(new Set(server.sessions.slice(before))).toEqual(new Set([renewed]));
    expect(server.count('initialize')).toBe(2);
  });

  it('gives the model a tool error to read, and the loop goes on', async () => {
    model.setScript(echoScript);
    const { worker } = shared;
    const answer = await worker.ask('bob', 'break it');
    expect(answer.steps).toBe(2);
    const [toolMessage] = lastToolMessages();
    // The server's isError result, as @mcp/ai-sdk's ToolError words it.
    expect(toolMessage).toMatch(/^tool echo failed: .*Invalid arguments for tool echo/);
    expect(answer.text).toBe(`The tool said: ${toolMessage}`);
  });

  it('starts a long task in one invocation and collects its result in a later one', async () => {
    model.setScript(taskScript);
    const { server, worker } = shared;

    const taskId = await startReport(worker, 'cat');
    // Later invocations: the task id comes from the Durable Object, not from the model.
    expect(await checkUntilEnded(worker, 'cat')).toMatchObject([
      { taskId, tool: 'slow-steps', status: 'completed', text: 'done after 3 steps', isError: false },
    ]);
    expect((await worker.ask('cat', 'check again')).text).toBe('Tasks: {"tasks":[]}');

    expect(server.count('initialize')).toBe(1);
    expect(server.count('tools/call')).toBe(1);
    expect(server.count('tasks/result')).toBe(1);
  });

  it('checks a task started in the same step only in a later check, and loses none', async () => {
    model.setScript(taskScript);
    const { worker } = shared;
    const first = await startReport(worker, 'kim');

    // One step: background_start and background_check at once, with one task already stored.
    const answer = await worker.ask('kim', 'one more task, and both statuses');
    expect(answer.toolCalls).toEqual(['background_start', 'background_check']);
    const [started] = lastToolMessages();
    const second = (JSON.parse(started ?? '{}') as { taskId: string }).taskId;
    expect(second).toEqual(expect.any(String));
    expect(second).not.toBe(first);
    // The check saw only the stored task: the one just starting had no id yet.
    expect(lastTaskReports().map((report) => report.taskId)).toEqual([first]);

    // Later checks collect both, each once.
    const collected: string[] = [];
    const both = async () => {
      await worker.ask('kim', 'check the reports');
      for (const report of lastTaskReports()) if (report.status === 'completed') collected.push(report.taskId);
      return collected.length;
    };
    await expect.poll(both, { timeout: 10_000, interval: 200 }).toBe(2);
    expect(collected.sort()).toEqual([first, second].sort());
    expect((await worker.ask('kim', 'check again')).text).toBe('Tasks: {"tasks":[]}');
  });

  it('keeps a task whose check fails for another reason than an unknown task (503), and collects it later', async () => {
    model.setScript(taskScript);
    const { server, worker } = shared;
    const taskId = await startReport(worker, 'lea');

    server.unavailable.add('tasks/get');
    await worker.ask('lea', 'check the report');
    const [report] = lastTaskReports();
    expect(report).toMatchObject({ taskId, tool: 'slow-steps', status: 'unknown' });
    expect(report?.error).toContain('503');

    server.unavailable.clear();
    expect(await checkUntilEnded(worker, 'lea')).toMatchObject([
      { taskId, status: 'completed', text: 'done after 3 steps' },
    ]);
  });

  it('forgets a task the server no longer knows, reported as failed', async () => {
    model.setScript(taskScript);
    const { server, worker } = shared;
    await startReport(worker, 'max');
    // The server forgets the session, and with it the session's task store.
    server.forgotten.add(server.sessions.at(-1) ?? '');
    await worker.ask('max', 'check the report');
    const [report] = lastTaskReports();
    expect(report).toMatchObject({ status: 'failed' });
    expect((await worker.ask('max', 'check again')).text).toBe('Tasks: {"tasks":[]}');
  });

  it('collects, in a restarted workerd with persisted storage, the task an earlier process started', async () => {
    model.setScript(taskScript);
    const { server } = shared;
    const persist = join(scratch, 'restart');
    const first = startWorker(server.url, persist);
    const taskId = await startReport(first, 'dan');
    await first.dispose();

    // Nothing of the first process is left but the Durable Object's storage on disk.
    const second = startWorker(server.url, persist);
    expect(await checkUntilEnded(second, 'dan')).toMatchObject([
      { taskId, status: 'completed', text: 'done after 3 steps' },
    ]);
    // The session, too, came from disk: still one handshake.
    expect(server.count('initialize')).toBe(1);
  });

  it(`stops the tool loop after ${MAX_STEPS} steps`, async () => {
    model.setScript([{ call: [{ tool: 'echo', args: { text: 'again' } }] }]);
    const { worker } = shared;
    const answer = await worker.ask('eve', 'loop forever');
    expect(answer).toMatchObject({ steps: MAX_STEPS, finishReason: 'tool-calls', text: '' });
    expect(model.requests).toHaveLength(MAX_STEPS);
  });

  it(`refuses background task ${MAX_TASKS + 1} while ${MAX_TASKS} are held`, async () => {
    const start = { tool: 'background_start', args: { tool: 'slow-steps', arguments: { steps: 1, stepMs: 0 } } };
    model.setScript([
      { when: { last: 'user', userSays: 'many' }, call: Array(MAX_TASKS + 1).fill(start) },
      { when: { last: 'user', userSays: 'check' }, call: [{ tool: 'background_check' }] },
      { when: { last: 'tool' }, reply: 'ok' },
    ]);
    const { worker } = shared;
    await worker.ask('fay', 'start many');
    const outputs = lastToolMessages();
    expect(outputs).toHaveLength(MAX_TASKS + 1);
    const refused = outputs.filter((output) => output.includes(`at most ${MAX_TASKS} background tasks`));
    expect(refused).toHaveLength(1);

    await worker.ask('fay', 'check');
    expect(lastTaskReports()).toHaveLength(MAX_TASKS);
  });

  it('refuses a message or body over its limit and a bad body, before any model call', async () => {
    const { worker } = shared;
    const long = await worker.chat('gil', 'x'.repeat(MAX_MESSAGE_CHARS + 1));
    expect(long).toMatchObject({ status: 413, answer: { error: `message over ${MAX_MESSAGE_CHARS} characters` } });
    const padded = JSON.stringify({ message: 'hi', padding: 'x'.repeat(MAX_BODY_BYTES) });
    const big = await worker.as('gil', `${WORKER}/chat`, { method: 'POST', body: padded });
    expect(big).toMatchObject({ status: 413, answer: { error: `body over ${MAX_BODY_BYTES} bytes` } });
    expect((await worker.as('gil', `${WORKER}/chat`, { method: 'POST', body: '{}' })).status).toBe(400);
    expect((await worker.as('gil', `${WORKER}/chat`, { method: 'POST', body: '{' })).status).toBe(400);
    expect(model.requests).toEqual([]);
  });

  it('answers 502 with the error when the model endpoint fails', async () => {
    model.setScript([{ error: { status: 400, message: 'the model refused' } }]);
    const { worker } = shared;
    const { status, answer } = await worker.chat('hal', 'hi');
    expect(status).toBe(502);
    expect(answer.error).toContain('the model refused');
  });

  it(`ends a turn that runs past its bound (MAX_TURN_MS, ${MAX_TURN_MS} ms by default) with 504`, async () => {
    const turnMs = 400;
    model.setScript([
      { when: { last: 'user', userSays: 'echo' }, call: [{ tool: 'echo', args: { text: 'quick' } }] },
      { when: { last: 'tool' }, delayMs: 5_000, reply: 'too late' },
    ]);
    const { server } = shared;
    const worker = startWorker(server.url, undefined, { MAX_TURN_MS: String(turnMs) });
    // The user's servers connected first (outside any turn), so the bound is spent on the loop alone.
    expect((await worker.serversOf('kit')).map((entry) => entry.status)).toEqual(['ready']);
    const started = performance.now();
    const { status, answer } = await worker.chat('kit', 'please echo');
    const took = performance.now() - started;
    expect({ status, answer }).toMatchObject({ status: 504, answer: { error: `the turn ran past ${turnMs} ms` } });
    // The model's second step would have answered after 5 s: the bound, not the model, ended the turn.
    expect(model.requests).toHaveLength(2);
    expect(took).toBeLessThan(4_000);
    await worker.dispose();
  });

  it('sends the user to authorize, keeps the tokens in the object, and uses them after a restart', async () => {
    model.setScript(echoScript);
    const scenario = await auth.createScenario({ inner: 'stateful' });
    const { mcp, issuer } = scenario.info();
    const persist = join(scratch, 'oauth');
    const worker = startWorker(mcp, persist);

    const first = await worker.chat('ivy', 'please echo');
    expect(first.status).toBe(401);
    const authorization = new URL(first.answer.authorize?.main ?? '');
    expect(`${authorization.origin}${authorization.pathname}`).toBe(`${issuer}/oauth/authorize`);
    expect(authorization.searchParams.get('redirect_uri')).toBe(`${WORKER}/callback`);
    expect(model.requests).toEqual([]);

    // The browser at the (auto-approving) authorization server, then back at the Worker.
    const approved = await fetch(authorization, { redirect: 'manual' });
    const callback = approved.headers.get('location') ?? '';
    expect(callback.startsWith(`${WORKER}/callback?`)).toBe(true);
    expect(await worker.as('ivy', callback)).toMatchObject({ status: 200, answer: { authorized: true } });

    expect((await worker.ask('ivy', 'please echo')).text).toBe(`The tool said: ${ECHOED}`);
    await worker.dispose();

    const restarted = startWorker(mcp, persist);
    expect((await restarted.ask('ivy', 'echo after restart')).text).toBe(`The tool said: ${ECHOED}`);
    const tokenRequests = scenario
      .stats()
      .requests.filter((entry) => entry.server === 'as' && entry.path === '/oauth/token');
    expect(tokenRequests).toHaveLength(1);
    // Another user has no tokens of ivy's.
    expect((await restarted.chat('jon', 'please echo')).status).toBe(401);
  });

  it('finishes a sign-in whose callback comes after the object restarted, from the pending authorization it stored', async () => {
    model.setScript(echoScript);
    const scenario = await auth.createScenario({ inner: 'stateful' });
    const persist = join(scratch, 'callback-after-restart');
    const first = startWorker(scenario.info().mcp, persist);
    const started = await first.chat('uma', 'please echo');
    expect(started.status).toBe(401);
    const callback = (await fetch(started.answer.authorize?.main ?? '', { redirect: 'manual' })).headers.get(
      'location',
    );
    await first.dispose();

    // The flow that issued the callback's state lived in the first workerd's memory; its record is in storage.
    const second = startWorker(scenario.info().mcp, persist);
    expect(await second.as('uma', callback ?? '')).toMatchObject({ status: 200, answer: { authorized: true } });
    expect((await second.serversOf('uma')).map(({ name, status }) => [name, status])).toEqual([['main', 'ready']]);
    expect((await second.ask('uma', 'please echo')).text).toBe(`The tool said: ${ECHOED}`);
    // One sign-in: the one code redeemed, no second visit to the authorization endpoint.
    const atAs = scenario.stats().requests.filter((entry) => entry.server === 'as');
    expect(atAs.filter((entry) => entry.path === '/oauth/authorize')).toHaveLength(1);
    expect(atAs.filter((entry) => entry.form?.grant_type === 'authorization_code')).toHaveLength(1);
    // The tokens the callback brought are used as they are: the connection refreshes none of them.
    expect(atAs.filter((entry) => entry.form?.grant_type === 'refresh_token')).toHaveLength(0);
    await second.dispose();
  });

  it('comes back after a restart (hibernation, a deploy) with every server, no initialize, no server/discover and no new sign-in', async () => {
    model.setScript(echoScript);
    const main = await taskServer();
    const scenario = await auth.createScenario({ inner: 'stateful' });
    const { mcp: secureUrl } = scenario.info();
    const atSecure = (what: (entry: RecordedAuthRequest) => boolean) => scenario.stats().requests.filter(what).length;
    const handshakes = () => ({
      main: { initialize: main.count('initialize'), discover: main.count('server/discover') },
      secure: {
        initialize: atSecure((entry) => entry.rpcMethod === 'initialize'),
        discover: atSecure((entry) => entry.rpcMethod === 'server/discover'),
      },
    });
    const signIns = () => ({
      authorize: atSecure((entry) => entry.server === 'as' && entry.path === '/oauth/authorize'),
      token: atSecure((entry) => entry.server === 'as' && entry.path === '/oauth/token'),
    });
    const persist = join(scratch, 'hibernation');
    const variables = { SERVER_ORIGINS: new URL(secureUrl).origin };
    const first = startWorker(main.url, persist, variables);

    // The server the user adds wants sign-in: the Worker answers with its state and the URL, and opens nothing.
    const added = await first.addServer('una', { name: 'secure', url: secureUrl });
    expect(added.status).toBe(201);
    expect(added.answer.server).toMatchObject({ name: 'secure', status: 'authorizing', tools: [] });
    const signInAt = added.answer.server?.authorize ?? '';
    expect(signInAt.startsWith(`${scenario.info().issuer}/oauth/authorize?`)).toBe(true);
    // A message meanwhile runs with main's tools, and tells the caller where to sign in.
    const meanwhile = await first.ask('una', 'please echo');
    expect(meanwhile).toMatchObject({ text: `The tool said: ${ECHOED}`, authorize: { secure: signInAt } });

    const callback = (await fetch(signInAt, { redirect: 'manual' })).headers.get('location') ?? '';
    expect(await first.as('una', callback)).toMatchObject({ status: 200, answer: { authorized: true } });
    const before = await first.serversOf('una');
    expect(before.map(({ name, status }) => [name, status])).toEqual([
      ['main', 'ready'],
      ['secure', 'ready'],
    ]);
    expect(before[1]?.tools.length).toBeGreaterThan(0);
    // One handshake each (at secure a server/discover refused 401 before the sign-in, and one after).
    const counted = handshakes();
    expect(counted).toEqual({ main: { initialize: 1, discover: 1 }, secure: { initialize: 1, discover: 2 } });
    expect(signIns()).toEqual({ authorize: 1, token: 1 });
    await first.dispose();

    // As after hibernation or a deploy: a new workerd, the object's storage on disk, nothing in memory.
    const second = startWorker(main.url, persist, variables);
    expect(await second.serversOf('una')).toEqual(before);
    // Each server's tools reach the model, and a call to each goes through on the resumed session.
    await second.ask('una', 'please echo');
    const offered = (model.requests.at(-1)?.body?.tools ?? []).map((tool) => tool.function.name);
    const echoes = offered.filter((name) => name.endsWith('echo'));
    expect(echoes).toHaveLength(2);
    model.setScript([
      { when: { last: 'user' }, call: echoes.map((tool) => ({ tool, args: { text: 'hello from the model' } })) },
      { when: { last: 'tool' }, reply: 'done' },
    ]);
    expect(await second.ask('una', 'echo on both')).toMatchObject({ toolCalls: echoes, text: 'done' });
    expect(lastToolMessages()).toEqual([ECHOED, ECHOED]);

    // Counted at the servers: no handshake since the restart, and the tokens were used as stored.
    expect(handshakes()).toEqual(counted);
    expect(signIns()).toEqual({ authorize: 1, token: 1 });
    expect(atSecure((entry) => entry.rpcMethod === 'tools/call' && entry.status === 200)).toBe(1);
    await second.dispose();
  });
});

/** A session cookie header signed under `secret` for `user`, expiring `expiresIn` seconds from now. */
async function signedCookie(secret: string, user: string, expiresIn: number): Promise<string> {
  const session = await sessionKey(secret);
  if (!('key' in session)) throw new Error('a secret of 32 characters or more');
  return `${SESSION_COOKIE}=${await signSession(session.key, user, Math.floor(Date.now() / 1000) + expiresIn)}`;
}

/** The payload part of a session cookie replaced by `payload`, the MAC kept. */
function withPayload(cookie: string, payload: object): string {
  const [name, value = ''] = cookie.split('=');
  const mac = value.split('.')[1];
  return `${name}=${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`;
}

describe('who may drive an agent: a verified user, never a name in the path', () => {
  const hour = 3600;
  const later = () => Math.floor(Date.now() / 1000) + hour;

  it('refuses with 401 a request with no credential, or a forged, tampered, expired or foreign one, and reaches no Durable Object', async () => {
    model.setScript(echoScript);
    const { worker } = shared;
    const ann = await worker.cookie('ann');
    const bob = await worker.cookie('bob');
    const cookie = (value: string) => ({ cookie: value });
    const access = (token: string) => ({ 'cf-access-jwt-assertion': token });
    const hs256 = await new SignJWT({ sub: 'ann' })
      .setProtectedHeader({ alg: 'HS256', kid: 'team-key-1' })
      .setIssuer(team.domain)
      .setAudience(team.audience)
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(team.publicPem));
    const invalidCookie = 'the session cookie is not valid, or has expired';
    const refusedToken = (code: string) => `the Access token was refused (${code})`;
    // What is sent, and the reason the Worker must give: each is refused for the reason it was built for.
    const refusals: Array<[string, Record<string, string>, string]> = [
      ['no credential', {}, 'sign in first'],
      ['a cookie that is no signed session', cookie(`${SESSION_COOKIE}=ann`), invalidCookie],
      [
        "a cookie signed under another deployment's secret",
        cookie(await signedCookie('x'.repeat(40), 'ann', hour)),
        invalidCookie,
      ],
      [
        "ann's cookie with its payload changed to bob",
        cookie(withPayload(ann, { sub: 'bob', exp: later() })),
        invalidCookie,
      ],
      [
        "ann's cookie with its expiry pushed out",
        cookie(withPayload(ann, { sub: 'ann', exp: later() + 10 * hour })),
        invalidCookie,
      ],
      ['an expired cookie', cookie(await signedCookie(SESSION_SECRET, 'ann', -1)), invalidCookie],
      ['two session cookies, ann and bob', cookie(`${ann}; ${bob}`), 'more than one session cookie'],
      [
        'a cookie over the credential bound',
        cookie(`${SESSION_COOKIE}=${'a'.repeat(MAX_CREDENTIAL_CHARS + 1)}`),
        `the session cookie is over ${MAX_CREDENTIAL_CHARS} characters`,
      ],
      [
        'an Access token signed by a key not in the team',
        access(await team.token('ann', {}, { unlistedKey: true })),
        refusedToken('ERR_JWS_SIGNATURE_VERIFICATION_FAILED'),
      ],
      [
        'an Access token for another application',
        access(await team.token('ann', { aud: 'another-app' })),
        refusedToken('ERR_JWT_CLAIM_VALIDATION_FAILED'),
      ],
      [
        'an Access token from another team',
        access(await team.token('ann', { iss: 'https://other.cloudflareaccess.com' })),
        refusedToken('ERR_JWT_CLAIM_VALIDATION_FAILED'),
      ],
      [
        'an expired Access token',
        access(await team.token('ann', {}, { expiresIn: Math.floor(Date.now() / 1000) - 60 })),
        refusedToken('ERR_JWT_EXPIRED'),
      ],
      [
        'an Access token with alg none',
        access(unsignedToken({ sub: 'ann', iss: team.domain, aud: team.audience, exp: later() })),
        refusedToken('ERR_JOSE_ALG_NOT_ALLOWED'),
      ],
      ['an Access token signed HS256 with the public key', access(hs256), refusedToken('ERR_JOSE_ALG_NOT_ALLOWED')],
      ['a service token (no user)', access(await team.token('')), refusedToken('the token names no user')],
      [
        'an Access token over the credential bound',
        access(`${await team.token('ann')}${'a'.repeat(MAX_CREDENTIAL_CHARS)}`),
        `the Access token is over ${MAX_CREDENTIAL_CHARS} characters`,
      ],
      // A bad Access token decides: the valid cookie next to it does not rescue the request.
      [
        "a bad Access token next to ann's valid cookie",
        { ...access('not.a.token'), cookie: ann },
        refusedToken('ERR_JWS_INVALID'),
      ],
    ];
    const before = (await worker.reached()).length;
    for (const [name, headers, reason] of refusals) {
      for (const [url, init] of [
        [`${WORKER}/chat`, { method: 'POST', body: JSON.stringify({ message: 'please echo' }) }],
        [`${WORKER}/callback?code=c&state=s`, {}],
      ] as const) {
        const { status, answer } = await worker.send(url, { ...init, headers });
        expect({ name, url, status, error: answer.error }).toEqual({ name, url, status: 401, error: reason });
      }
    }
    // The route no longer names a user: ann's cookie on bob's old path reaches nobody.
    expect((await worker.as('ann', `${WORKER}/chat/bob`, { method: 'POST', body: '{"message":"hi"}' })).status).toBe(
      404,
    );
    expect((await worker.as('ann', `${WORKER}/callback/bob?code=c&state=s`)).status).toBe(404);
    expect(await worker.reached()).toHaveLength(before);
    expect(model.requests).toEqual([]);

    // The recorder works, and the test's own signer signs as the Worker does: a fresh cookie it signed is let in.
    expect(
      (
        await worker.send(`${WORKER}/chat`, {
          method: 'POST',
          body: '{}',
          headers: cookie(await signedCookie(SESSION_SECRET, 'ann', hour)),
        })
      ).status,
    ).toBe(400);
    expect(await worker.reached()).toHaveLength(before + 1);
  });

  it("accepts a valid Access token, as the token's sub and in an object apart from a session user's", async () => {
    model.setScript(echoScript);
    const { worker } = shared;
    const token = await team.token('zed');
    const asAccess = () =>
      worker.send(`${WORKER}/chat`, {
        method: 'POST',
        body: JSON.stringify({ message: 'please echo' }),
        headers: { 'cf-access-jwt-assertion': token },
      });
    expect(await asAccess()).toMatchObject({ status: 200, answer: { text: `The tool said: ${ECHOED}` } });
    const keyRequests = team.keyRequests();
    const first = await worker.objectOf(asAccess);
    // The team's keys are kept between invocations, not fetched for every token.
    expect(team.keyRequests()).toBe(keyRequests);
    // The same Access user, the same object; the session user of the same name, another one.
    expect(await worker.objectOf(asAccess)).toBe(first);
    expect(await worker.objectOf(() => worker.chat('zed', 'please echo'))).not.toBe(first);
  });

  it('finishes a callback only for the user who started the authorization, and only for a state that user issued', async () => {
    model.setScript(echoScript);
    const scenario = await auth.createScenario({ inner: 'stateful' });
    const worker = startWorker(scenario.info().mcp);
    const tokenRequests = () =>
      scenario.stats().requests.filter((entry) => entry.server === 'as' && entry.path === '/oauth/token').length;
    /** `user` starts an authorization and approves it at the AS; the callback URL the browser is sent to. */
    const approvedCallback = async (user: string) => {
      const { status, answer } = await worker.chat(user, 'please echo');
      expect(status).toBe(401);
      const approved = await fetch(answer.authorize?.main ?? '', { redirect: 'manual' });
      return approved.headers.get('location') ?? '';
    };
    const ivyCallback = await approvedCallback('ivy');
    const jonCallback = await approvedCallback('jon');

    // Jon brings ivy's callback (her code and state): refused, no code redeemed, nothing stored for jon.
    const stolen = await worker.as('jon', ivyCallback);
    expect(stolen.status).toBe(400);
    expect(stolen.answer.error).toBe('AuthError: no pending authorization has the state of this response');
    // Ivy is led to jon's callback (his account, to plant on her agent): refused too.
    const planted = await worker.as('ivy', jonCallback);
    expect(planted.status).toBe(400);
    expect(planted.answer.error).toBe('AuthError: no pending authorization has the state of this response');
    expect(tokenRequests()).toBe(0);

    // Each user's own pending authorization was untouched: both finish, each with their own code.
    expect(await worker.as('ivy', ivyCallback)).toMatchObject({ status: 200, answer: { authorized: true } });
    expect(await worker.as('jon', jonCallback)).toMatchObject({ status: 200, answer: { authorized: true } });
    expect(tokenRequests()).toBe(2);

    // A replayed callback is refused, and the tokens it once brought stay.
    const replayed = await worker.as('ivy', ivyCallback);
    expect(replayed.status).toBe(400);
    expect(tokenRequests()).toBe(2);
    expect((await worker.ask('ivy', 'please echo')).text).toBe(`The tool said: ${ECHOED}`);
    await worker.dispose();
  });
});

describe('bounds on what one user can ask of an agent', () => {
  /** A worker signed in to through Access only, with small bounds; started once for these tests. */
  let limited: Worker;
  beforeAll(() => {
    limited = startWorker(shared.server.url, undefined, {
      SESSION_SECRET: undefined,
      // The default policy for the servers users add.
      SERVER_ORIGINS: undefined,
      MAX_QUEUE: '2',
      RATE_PER_MINUTE: '4',
    });
  });
  const asUser = async (sub: string, body: string) =>
    limited.send(`${WORKER}/chat`, {
      method: 'POST',
      body,
      headers: { 'cf-access-jwt-assertion': await team.token(sub) },
    });

  it(`answers 429 to one request more than MAX_QUEUE (${MAX_QUEUE} by default) holds`, async () => {
    model.setScript([
      { when: { last: 'user', userSays: 'slow' }, delayMs: 1_500, reply: 'slow answer' },
      { when: { last: 'user' }, reply: 'quick answer' },
    ]);
    const { server } = shared;
    const slow = JSON.stringify({ message: 'a slow one' });
    const first = asUser('queue-user', slow);
    // The first message runs (its tool list fetched, its model call waiting) before the others are sent.
    await expect.poll(() => server.count('tools/list'), { timeout: 10_000, interval: 50 }).toBe(1);
    // MAX_QUEUE is 2 here: one of these two waits behind the first, the other is one too many.
    const [second, third] = await Promise.all([asUser('queue-user', slow), asUser('queue-user', slow)]);
    expect((await first).status).toBe(200);
    expect([second.status, third.status].sort()).toEqual([200, 429]);
    const refused = second.status === 429 ? second : third;
    expect(refused.answer.error).toBe('2 requests of this user are already running or waiting');
    expect(refused.retryAfter).toBe('1');
    // Another user's agent is not held up by this one's queue, and once drained the queue takes requests again.
    expect((await asUser('other-user', JSON.stringify({ message: 'hi' }))).status).toBe(200);
    expect((await asUser('queue-user', JSON.stringify({ message: 'hi' }))).status).toBe(200);
  });

  it(`answers 429 with Retry-After past RATE_PER_MINUTE (${RATE_PER_MINUTE} by default), for that user only`, async () => {
    // RATE_PER_MINUTE is 4 here. A body the agent refuses costs no model call, but it is a request.
    for (let i = 0; i < 4; i++) expect((await asUser('rate-user', '{}')).status).toBe(400);
    const over = await asUser('rate-user', '{}');
    expect(over.status).toBe(429);
    expect(over.answer.error).toBe('over 4 requests a minute');
    // One request in 4 a minute comes back after 15 s at most.
    expect(Number(over.retryAfter)).toBeGreaterThan(0);
    expect(Number(over.retryAfter)).toBeLessThanOrEqual(15);
    expect((await asUser('another-rate-user', '{}')).status).toBe(400);
    expect(model.requests).toEqual([]);
  });

  it('refuses, without SERVER_ORIGINS, a server URL that is not https: to a public host name', async () => {
    // A user for each, under RATE_PER_MINUTE's 4 here.
    let users = 0;
    const add = async (url: string) =>
      limited.send(`${WORKER}/servers`, {
        method: 'POST',
        body: JSON.stringify({ name: 'probe', url }),
        headers: { 'cf-access-jwt-assertion': await team.token(`url-user-${++users}`) },
      });
    const refusals: Array<[string, string]> = [
      ['http://example.com/mcp', 'a server URL must be https:'],
      ['https://127.0.0.1/mcp', 'a server URL must name a host, not an IP address'],
      ['https://2130706433/mcp', 'a server URL must name a host, not an IP address'],
      ['https://0x7f.1/mcp', 'a server URL must name a host, not an IP address'],
      ['https://[::1]/mcp', 'a server URL must name a host, not an IP address'],
      ['https://169.254.169.254/', 'a server URL must name a host, not an IP address'],
      ['https://localhost/mcp', 'a server URL must name a public host'],
      ['https://metadata.google.internal/', 'a server URL must name a public host'],
      ['https://printer.local/', 'a server URL must name a public host'],
      ['https://intranet/mcp', 'a server URL must name a public host'],
      ['file:///etc/passwd', 'a server URL must be https:'],
    ];
    for (const [url, error] of refusals) {
      expect({ url, ...(await add(url)) }).toMatchObject({ url, status: 400, answer: { error } });
    }
  });

  it('has no login route and takes no session cookie where SESSION_SECRET is unset', async () => {
    const login = await limited.send(`${WORKER}/login`, {
      method: 'POST',
      headers: { authorization: 'Bearer ' },
      body: '{"user":"ann"}',
    });
    expect(login.status).toBe(404);
    const forged = await signedCookie(SESSION_SECRET, 'ann', 3600);
    const refused = await limited.send(`${WORKER}/chat`, { method: 'POST', body: '{}', headers: { cookie: forged } });
    expect(refused).toMatchObject({ status: 401, answer: { error: 'sign in first' } });
  });
});

describe('the servers a user adds', () => {
  const stateful = () => `${servers.modes}/stateful`;

  it("keeps each user's servers in that user's object: another user never sees or changes them", async () => {
    const { worker } = shared;
    const added = await worker.addServer('nia', { name: 'notes', url: stateful() });
    expect(added.status).toBe(201);
    expect(added.answer.server).toMatchObject({ name: 'notes', url: stateful(), status: 'ready' });
    expect(added.answer.server?.tools).toContain('echo');

    // Another user: only the operator's server, and a server of the same name is theirs alone.
    expect((await worker.serversOf('oto')).map((server) => server.name)).toEqual(['main']);
    const theirs = `${servers.modes}/stateless`;
    expect((await worker.addServer('oto', { name: 'notes', url: theirs })).status).toBe(201);
    expect((await worker.removeServer('oto', 'notes')).answer).toEqual({ removed: 'notes' });
    const nias = await worker.serversOf('nia');
    expect(nias.map(({ name, url, status }) => ({ name, url, status }))).toEqual([
      { name: 'main', url: shared.server.url, status: 'ready' },
      { name: 'notes', url: stateful(), status: 'ready' },
    ]);
    // Removed, it is gone for good: its session ended, its config deleted.
    expect((await worker.removeServer('nia', 'NOTES')).answer).toEqual({ removed: 'NOTES' });
    expect((await worker.serversOf('nia')).map((server) => server.name)).toEqual(['main']);
    expect((await worker.removeServer('nia', 'notes')).status).toBe(404);
  });

  it('refuses a hostile name, URL or config with the reason, and stores none of it', async () => {
    const { worker } = shared;
    const allowed = new URL(servers.modes).origin;
    const refusals: Array<[unknown, number, string | RegExp]> = [
      // Names: they key the object's storage and prefix tool names.
      [{ name: 'session:bob', url: stateful() }, 400, /is not a server name/],
      [{ name: 'access:zed', url: stateful() }, 400, /is not a server name/],
      [{ name: '../bob', url: stateful() }, 400, /is not a server name/],
      [{ name: 'mcp:configs', url: stateful() }, 400, /is not a server name/],
      [{ name: 'x'.repeat(33), url: stateful() }, 400, /is not a server name/],
      [{ name: 42, url: stateful() }, 400, /name/],
      [{ name: 'MAIN', url: stateful() }, 409, "main is the operator's server: users cannot add, replace or remove it"],
      // URLs: only the origins the operator allows.
      [
        { name: 'meta', url: 'http://169.254.169.254/latest/meta-data/' },
        400,
        `servers may be added only at ${allowed}`,
      ],
      [{ name: 'local', url: 'http://10.0.0.1/mcp' }, 400, `servers may be added only at ${allowed}`],
      [{ name: 'creds', url: `http://user:pw@${new URL(allowed).host}/stateful` }, 400, /user name or password/],
      [{ name: 'nourl' }, 400, '`url` must be an http: or https: URL'],
      // Sizes and headers: the set's bounds.
      [{ name: 'long', url: `${allowed}/${'x'.repeat(20_000)}` }, 413, /maxConfigBytes: 16384/],
      [{ name: 'heavy', url: stateful(), headers: { 'x-pad': 'x'.repeat(20_000) } }, 413, /maxConfigBytes: 16384/],
      [{ name: 'split', url: stateful(), headers: { 'x-a': 'one\r\nx-b: two' } }, 400, /line break/],
      ['not an object', 400, /the body must be/],
    ];
    for (const [config, status, reason] of refusals) {
      const { status: got, answer } = await worker.addServer('pat', config);
      expect({ config, status: got }).toEqual({ config, status });
      expect(answer.error).toMatch(reason);
    }
    expect((await worker.removeServer('pat', 'main')).status).toBe(409);
    expect((await worker.removeServer('pat', '%E0%A4%A')).status).toBe(400);
    expect((await worker.serversOf('pat')).map((server) => server.name)).toEqual(['main']);
  });

  it('holds at most MAX_SERVERS servers a user, the set refusing one more with 409', async () => {
    const { worker } = shared;
    // MAX_SERVERS is 3 here: main and two of the user's.
    expect((await worker.addServer('quin', { name: 'one', url: stateful() })).status).toBe(201);
    expect((await worker.addServer('quin', { name: 'two', url: stateful() })).status).toBe(201);
    const third = await worker.addServer('quin', { name: 'three', url: stateful() });
    expect(third.status).toBe(409);
    expect(third.answer.error).toMatch(/three would be one server too many \(maxServers: 3\)/);
    expect((await worker.addServer('quin', { name: 'ONE', url: stateful() })).status).toBe(400);
    expect((await worker.serversOf('quin')).map((server) => server.name)).toEqual(['main', 'one', 'two']);
    // Another user's room is their own.
    expect((await worker.addServer('rex', { name: 'one', url: stateful() })).status).toBe(201);
  });
});

describe('the login route', () => {
  const login = (authorization: string | undefined, body: string, method = 'POST') =>
    shared.worker.send(`${WORKER}/login`, {
      method,
      headers: authorization === undefined ? {} : { authorization },
      ...(method === 'POST' && { body }),
    });

  it('issues a cookie only to the holder of SESSION_SECRET, and only for a well-formed user name', async () => {
    const ann = JSON.stringify({ user: 'ann' });
    expect((await login(undefined, ann)).status).toBe(401);
    expect((await login('Bearer not-the-secret', ann)).status).toBe(401);
    expect((await login(`Bearer ${SESSION_SECRET}x`, ann)).status).toBe(401);
    expect((await login(`Bearer ${SESSION_SECRET.slice(0, -1)}`, ann)).status).toBe(401);
    expect((await login(`Basic ${SESSION_SECRET}`, ann)).status).toBe(401);
    expect((await login(`Bearer ${SESSION_SECRET}`, ann, 'GET')).status).toBe(405);
    for (const user of ['../ann', 'ann/../bob', 'a b', '', 'x'.repeat(65), 'access:ann', 'ann\n']) {
      const answer = await login(`Bearer ${SESSION_SECRET}`, JSON.stringify({ user }));
      expect({ user, status: answer.status }).toEqual({ user, status: 400 });
    }
    const big = await login(
      `Bearer ${SESSION_SECRET}`,
      JSON.stringify({ user: 'ann', pad: 'x'.repeat(MAX_LOGIN_BODY_BYTES) }),
    );
    expect(big.status).toBe(413);

    const response = await shared.worker.send(`${WORKER}/login`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SESSION_SECRET}` },
      body: ann,
    });
    expect(response).toMatchObject({ status: 200, answer: { user: 'ann' } });
  });

  it('sets the cookie HttpOnly, Secure, SameSite=Lax and __Host-, expiring after SESSION_TTL_SECONDS', async () => {
    const response = await shared.worker.send(`${WORKER}/login`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SESSION_SECRET}` },
      body: JSON.stringify({ user: 'ann' }),
    });
    const setCookie = response.setCookie ?? '';
    expect(setCookie.startsWith('__Host-agent_session=')).toBe(true);
    expect(setCookie).toContain(`Max-Age=${SESSION_TTL_SECONDS}`);
    for (const attribute of ['Path=/', 'HttpOnly', 'Secure', 'SameSite=Lax']) expect(setCookie).toContain(attribute);
  });

  it('answers every request 500, reaching no object, when sign-in is misconfigured or not configured', async () => {
    const off = { SESSION_SECRET: undefined, ACCESS_TEAM_DOMAIN: undefined, ACCESS_AUD: undefined };
    const cookie = await signedCookie('x'.repeat(MIN_SECRET_CHARS), 'ann', 3600);
    const cases: Array<[Record<string, string | undefined>, string]> = [
      [
        { ...off, SESSION_SECRET: 'x'.repeat(MIN_SECRET_CHARS - 1) },
        `SESSION_SECRET must be at least ${MIN_SECRET_CHARS} characters`,
      ],
      [{ ...off, ACCESS_AUD: team.audience }, 'set both ACCESS_TEAM_DOMAIN and ACCESS_AUD, or neither'],
      [
        { ...off, ACCESS_AUD: team.audience, ACCESS_TEAM_DOMAIN: 'http://team.example.com' },
        'ACCESS_TEAM_DOMAIN must be https://<team>.cloudflareaccess.com',
      ],
      [off, 'no sign-in is configured: set ACCESS_TEAM_DOMAIN and ACCESS_AUD, or SESSION_SECRET'],
    ];
    for (const [variables, error] of cases) {
      const worker = startWorker(shared.server.url, undefined, variables);
      const headers = { cookie, 'cf-access-jwt-assertion': await team.token('ann') };
      expect(await worker.send(`${WORKER}/chat`, { method: 'POST', body: '{}', headers })).toMatchObject({
        status: 500,
        answer: { error },
      });
      expect(await worker.reached()).toEqual([]);
      await worker.dispose();
    }
  });
});
