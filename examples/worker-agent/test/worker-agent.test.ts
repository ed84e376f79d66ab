import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHttpTransport } from '@mcp/core';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AuthServers, startAuthServers } from '../../../test-servers/auth/serve.mjs';
import { startHttpServers } from '../../../test-servers/http/serve.mjs';
import { type MockModel, type MockScript, startMockModel } from '../../../test-servers/mock-model/serve.mjs';
import { type RecordingProxy, startRecordingProxy } from '../../../test-servers/recording-proxy.mjs';
import { MAX_BODY_BYTES, MAX_MESSAGE_CHARS, MAX_STEPS, MAX_TURN_MS } from '../agent-object.js';
import { MAX_TASKS } from '../background-tools.js';
import { buildWorker } from '../build.mjs';

interface AgentAnswer {
  text?: string;
  finishReason?: string;
  steps?: number;
  toolCalls?: string[];
  authorize?: string;
  authorized?: boolean;
  error?: string;
}

interface TaskReport {
  taskId: string;
  tool: string;
  status: string;
  text?: string;
  error?: string;
}

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const MODEL_KEY = 'model-key';
const WORKER = 'https://agent.test';

let servers: Awaited<ReturnType<typeof startHttpServers>>;
let auth: AuthServers;
let model: MockModel;
let bundle: string;
let scratch: string;
const workers: Miniflare[] = [];
let shared: { server: Awaited<ReturnType<typeof taskServer>>; worker: Worker };
const proxies: RecordingProxy[] = [];

beforeAll(async () => {
  for (const dist of ['packages/core/dist/index.js', 'packages/ai-sdk/dist/index.js']) {
    if (!existsSync(`${repoRoot}${dist}`)) throw new Error(`build first (pnpm build): ${dist} is missing`);
  }
  scratch = mkdtempSync(join(tmpdir(), 'worker-agent-'));
  bundle = await buildWorker(join(scratch, 'bundle', 'worker.js'));
  [servers, auth, model] = await Promise.all([
    startHttpServers(),
    startAuthServers(),
    startMockModel({ apiKey: MODEL_KEY }),
  ]);
  // One workerd for the tests that need no restart (a workerd start takes seconds on two cores);
  // each test has users of its own, so its own Durable Objects and MCP sessions.
  const server = await taskServer();
  shared = { server, worker: startWorker(server.url) };
});
afterAll(async () => {
  await Promise.all(workers.map((mf) => mf.dispose()));
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await Promise.all([servers?.close(), auth?.close(), model?.close()]);
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
 * The bundled agent in workerd, for the MCP server at `mcpUrl`; each `chat` is one invocation.
 * With `persist`, Durable Object storage is kept on disk there, for a later Miniflare to find.
 */
function startWorker(mcpUrl: string, persist?: string, variables: Record<string, string> = {}) {
  const mf = new Miniflare({
    modules: true,
    scriptPath: bundle,
    modulesRoot: dirname(bundle),
    compatibilityDate: '2025-09-01',
    bindings: {
      MCP_URL: mcpUrl,
      MODEL_BASE_URL: model.url,
      MODEL_API_KEY: MODEL_KEY,
      MODEL_ID: 'mock-agent',
      ...variables,
    },
    durableObjects: { AGENT: 'AgentObject' },
    ...(persist && { durableObjectsPersist: persist }),
  });
  workers.push(mf);
  const send = async (url: string, init?: RequestInit) => {
    const response = await mf.dispatchFetch(url, init as never);
    return { status: response.status, answer: (await response.json()) as AgentAnswer };
  };
  const chat = (user: string, message: string) =>
    send(`${WORKER}/chat/${user}`, { method: 'POST', body: JSON.stringify({ message }) });
  return {
    send,
    chat,
    /** One message that must succeed. */
    async ask(user: string, message: string) {
      const { status, answer } = await chat(user, message);
      expect(answer.error).toBeUndefined();
      expect(status).toBe(200);
      return answer;
    },
    async dispose() {
      workers.splice(workers.indexOf(mf), 1);
      await mf.dispose();
    },
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

  it('refuses a message or body over its limit, a bad body and a bad user name, before any model call', async () => {
    const { worker } = shared;
    const long = await worker.chat('gil', 'x'.repeat(MAX_MESSAGE_CHARS + 1));
    expect(long).toEqual({ status: 413, answer: { error: `message over ${MAX_MESSAGE_CHARS} characters` } });
    const padded = JSON.stringify({ message: 'hi', padding: 'x'.repeat(MAX_BODY_BYTES) });
    const big = await worker.send(`${WORKER}/chat/gil`, { method: 'POST', body: padded });
    expect(big).toEqual({ status: 413, answer: { error: `body over ${MAX_BODY_BYTES} bytes` } });
    expect((await worker.send(`${WORKER}/chat/gil`, { method: 'POST', body: '{}' })).status).toBe(400);
    expect((await worker.send(`${WORKER}/chat/gil`, { method: 'POST', body: '{' })).status).toBe(400);
    expect((await worker.chat('not a name', 'hi')).status).toBe(400);
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
    const started = performance.now();
    const { status, answer } = await worker.chat('kit', 'please echo');
    const took = performance.now() - started;
    expect({ status, answer }).toEqual({ status: 504, answer: { error: `the turn ran past ${turnMs} ms` } });
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
    const authorization = new URL(first.answer.authorize ?? '');
    expect(`${authorization.origin}${authorization.pathname}`).toBe(`${issuer}/oauth/authorize`);
    expect(authorization.searchParams.get('redirect_uri')).toBe(`${WORKER}/callback/ivy`);
    expect(model.requests).toEqual([]);

    // The browser at the (auto-approving) authorization server, then back at the Worker.
    const approved = await fetch(authorization, { redirect: 'manual' });
    const callback = approved.headers.get('location') ?? '';
    expect(callback.startsWith(`${WORKER}/callback/ivy?`)).toBe(true);
    expect(await worker.send(callback)).toEqual({ status: 200, answer: { authorized: true } });

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
});
