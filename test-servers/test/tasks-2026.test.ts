import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHttpServers } from '../http/serve.mjs';
import type { Message } from './http-peer.js';
import { ALL_CAPABILITIES, modernMeta, modernPost, modernRequest } from './modern-peer.js';
import { isTerminal, pollTask, stdioTaskPeer } from './task-peers.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const WITH_TASKS = { ...ALL_CAPABILITIES, extensions: { [TASKS]: {} } };
const taskEntry = fileURLToPath(new URL('../tasks/stdio.mjs', import.meta.url));

let servers: Awaited<ReturnType<typeof startHttpServers>>;
beforeAll(async () => {
  servers = await startHttpServers();
});
afterAll(() => servers.close());

/** Sends one 2026-07-28 request declaring `capabilities` (the tasks extension unless told otherwise). */
type Send = (
  method: string,
  params?: Record<string, unknown>,
  capabilities?: Record<string, unknown>,
) => Promise<Message>;

const transports: [string, () => { send: Send; close: () => Promise<void> }][] = [
  [
    'stdio',
    () => {
      const peer = stdioTaskPeer(taskEntry, ['--revision', '2026-07-28']);
      return {
        send: (method, params = {}, capabilities = WITH_TASKS) =>
          peer.request(method, { ...params, _meta: modernMeta(capabilities) }),
        close: () => peer.close(),
      };
    },
  ],
  [
    'Streamable HTTP /tasks-2026',
    () => {
      const url = `${servers.modes}/tasks-2026?run=${crypto.randomUUID()}`;
      return {
        send: (method, params = {}, capabilities = WITH_TASKS) =>
          modernRequest(url, method, { ...params, _meta: modernMeta(capabilities) }),
        close: async () => {},
      };
    },
  ],
];

describe.each(transports)('2026-07-28 task server (io.modelcontextprotocol/tasks) over %s', (_name, connect) => {
  let send: Send;
  let close: () => Promise<void>;
  beforeAll(() => {
    ({ send, close } = connect());
  });
  afterAll(() => close());

  const start = async (
    name: string,
    args: Record<string, unknown> = {},
    capabilities: Record<string, unknown> = WITH_TASKS,
    inputResponses?: Record<string, unknown>,
  ) => {
    const params = { name, arguments: args, ...(inputResponses && { inputResponses }) };
    const { result, error } = await send('tools/call', params, capabilities);
    if (error !== undefined) throw new Error(`tools/call ${name}: ${JSON.stringify(error)}`);
    return result as Record<string, unknown>;
  };
  const get = (taskId: unknown) => () => send('tasks/get', { taskId });
  const update = (taskId: unknown, inputResponses: Record<string, unknown>) =>
    send('tasks/update', { taskId, inputResponses });

  it('advertises the extension in server/discover', async () => {
    const { result } = await send('server/discover');
    expect(result).toMatchObject({ capabilities: { extensions: { [TASKS]: {} } } });
  });

  it('answers -32021 naming the extension when a task-only tool is called without it', async () => {
    const { error } = await send('tools/call', { name: 'slow-steps', arguments: {} }, ALL_CAPABILITIES);
    expect(error).toEqual({
      code: -32021,
      message: `Missing required client capability: ${TASKS}`,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
  });

  it('answers tools/call with resultType "task" (a bare Task, no content), then tasks/get to completed with the result', async () => {
    const created = await start('slow-steps', { steps: 3, stepMs: 30 });
    expect(Object.keys(created).sort()).toEqual(
      [
        '_meta',
        'createdAt',
        'lastUpdatedAt',
        'pollIntervalMs',
        'resultType',
        'status',
        'statusMessage',
        'taskId',
        'ttlMs',
      ].sort(),
    );
    expect(created).toMatchObject({
      resultType: 'task',
      status: 'working',
      statusMessage: 'step 1 of 3',
      ttlMs: 60_000,
      pollIntervalMs: 50,
    });
    const messages = new Set<unknown>();
    const done = await pollTask(get(created.taskId), (task) => {
      messages.add(task.statusMessage);
      return isTerminal(task);
    });
    // Whichever polls land where, each sees a step's message or the final one.
    for (const message of messages) expect(['step 1 of 3', 'step 2 of 3', 'step 3 of 3', 'done']).toContain(message);
    expect(done).toMatchObject({
      resultType: 'complete',
      taskId: created.taskId,
      status: 'completed',
      statusMessage: 'done',
      result: { content: [{ type: 'text', text: 'done after 3 steps' }] },
    });
  });

  it('changes pollIntervalMs during a task when asked to (from step 2)', async () => {
    const created = await start('slow-steps', { steps: 3, stepMs: 40, pollIntervalMs: 7 });
    expect(created.pollIntervalMs).toBe(50);
    const later = await pollTask(get(created.taskId), (task) => task.statusMessage !== 'step 1 of 3');
    expect(later.pollIntervalMs).toBe(7);
  });

  it('runs an optional tool inline without the extension and as a task with it', async () => {
    const inline = await start('maybe-task', { text: 'now' }, ALL_CAPABILITIES);
    expect(inline).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'echo: now' }] });
    const created = await start('maybe-task', { text: 'later' });
    expect(created.resultType).toBe('task');
    expect(await pollTask(get(created.taskId), isTerminal)).toMatchObject({
      result: { content: [{ text: 'echo: later' }] },
    });
  });

  it('asks one question at a time in inputRequests, each under a new key, answered by tasks/update', async () => {
    const created = await start('ask-mid-task', { questions: 2 });
    const first = await pollTask(get(created.taskId), (task) => task.status !== 'working');
    expect(first).toMatchObject({
      status: 'input_required',
      inputRequests: {
        'answer-1': {
          method: 'elicitation/create',
          params: { mode: 'form', message: 'Question 1 of 2', requestedSchema: { required: ['answer'] } },
        },
      },
    });
    expect(Object.keys(first.inputRequests as object)).toEqual(['answer-1']);
    const ack = await update(created.taskId, { 'answer-1': { action: 'accept', content: { answer: 'red' } } });
    expect(ack.result).toMatchObject({ resultType: 'complete' });
    expect(Object.keys(ack.result as object).sort()).toEqual(['_meta', 'resultType']);
    const second = await pollTask(
      get(created.taskId),
      (task) => task.status === 'input_required' && 'answer-2' in (task.inputRequests as object),
    );
    expect(Object.keys(second.inputRequests as object)).toEqual(['answer-2']);
    await update(created.taskId, { 'answer-2': { action: 'decline' } });
    expect(await pollTask(get(created.taskId), isTerminal)).toMatchObject({
      status: 'completed',
      result: { content: [{ text: '["red","(decline)"]' }] },
    });
  });

  it('takes a partial tasks/update and ignores keys that are not outstanding', async () => {
    const created = await start('ask-mid-task', { questions: 2, together: true });
    const asked = await pollTask(get(created.taskId), (task) => task.status === 'input_required');
    expect(Object.keys(asked.inputRequests as object).sort()).toEqual(['answer-1', 'answer-2']);
    await update(created.taskId, { 'answer-2': { action: 'accept', content: { answer: 'b' } }, 'never-asked': {} });
    const partial = (await get(created.taskId)()).result as Record<string, unknown>;
    expect(partial.status).toBe('input_required');
    expect(Object.keys(partial.inputRequests as object)).toEqual(['answer-1']);
    await update(created.taskId, {
      'answer-2': { action: 'accept', content: { answer: 'again' } },
      'answer-1': { action: 'accept', content: { answer: 'a' } },
    });
    expect(await pollTask(get(created.taskId), isTerminal)).toMatchObject({
      result: { content: [{ text: '["a","b"]' }] },
    });
  });

  it('resolves a multi-round-trip exchange on tools/call before answering with the task', async () => {
    const call = (inputResponses?: Record<string, unknown>) =>
      start('confirm-then-task', { steps: 2, stepMs: 0 }, WITH_TASKS, inputResponses);
    const asked = await call();
    expect(asked).toMatchObject({
      resultType: 'input_required',
      inputRequests: {
        confirm: {
          method: 'elicitation/create',
          params: { message: 'Start the task?', requestedSchema: { required: ['confirm'] } },
        },
      },
    });
    const created = await call({ confirm: { action: 'accept', content: { confirm: true } } });
    expect(created.resultType).toBe('task');
    expect(await pollTask(get(created.taskId), isTerminal)).toMatchObject({
      result: { content: [{ text: 'confirmed, done after 2 steps' }] },
    });
    expect(await call({ confirm: { action: 'decline' } })).toMatchObject({
      resultType: 'complete',
      content: [{ text: 'not confirmed (decline)' }],
    });
  });

  it('answers -32021 naming elicitation when the mid-task question cannot be asked', async () => {
    const { error } = await send(
      'tools/call',
      { name: 'ask-mid-task', arguments: {} },
      { extensions: { [TASKS]: {} } },
    );
    expect(error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
  });

  it('reports a JSON-RPC failure as failed with error, a tool error as completed with isError', async () => {
    const failed = await start('fail-task');
    expect(await pollTask(get(failed.taskId), isTerminal)).toMatchObject({
      status: 'failed',
      statusMessage: 'simulated failure',
      error: { code: -32603, message: 'simulated failure' },
    });
    const toolError = await start('fail-task', { how: 'tool-error' });
    expect(await pollTask(get(toolError.taskId), isTerminal)).toMatchObject({
      status: 'completed',
      result: { isError: true, content: [{ text: 'simulated failure' }] },
    });
  });

  it('cancels with tasks/cancel (an empty ack), and acks a second cancel without changing the task', async () => {
    const created = await start('cancellable', { maxMs: 20_000 });
    const ack = await send('tasks/cancel', { taskId: created.taskId });
    expect(ack.result).toMatchObject({ resultType: 'complete' });
    expect((await get(created.taskId)()).result).toMatchObject({ status: 'cancelled' });
    expect((await send('tasks/cancel', { taskId: created.taskId })).error).toBeUndefined();
    expect((await get(created.taskId)()).result).toMatchObject({ status: 'cancelled' });
  });

  it('answers -32602 for an unknown or expired task, and -32021 to task methods without the extension', async () => {
    expect((await send('tasks/get', { taskId: 'no-such-task' })).error).toEqual({
      code: -32602,
      message: 'Failed to retrieve task: Task not found',
    });
    expect((await update('no-such-task', {})).error).toMatchObject({ code: -32602 });
    expect((await send('tasks/cancel', { taskId: 'no-such-task' })).error).toMatchObject({ code: -32602 });
    const short = await start('slow-steps', { steps: 1, stepMs: 0, ttlMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await get(short.taskId)()).error).toEqual({
      code: -32602,
      message: 'Failed to retrieve task: Task has expired',
    });
    const live = await start('slow-steps', { steps: 1, stepMs: 0 });
    for (const method of ['tasks/get', 'tasks/cancel']) {
      expect((await send(method, { taskId: live.taskId }, ALL_CAPABILITIES)).error).toMatchObject({ code: -32021 });
    }
  });
});

describe('2026-07-28 task server over Streamable HTTP: statuses and Mcp-Name', () => {
  it('sends -32021 as HTTP 400 with the JSON-RPC error, an unknown task (-32602) as 200, each application/json', async () => {
    const url = `${servers.modes}/tasks-2026?run=${crypto.randomUUID()}`;
    const call = { name: 'slow-steps', arguments: {}, _meta: modernMeta(ALL_CAPABILITIES) };
    const refused = await modernPost(url, 'tools/call', call);
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toContain('application/json');
    expect(((await refused.json()) as Message).error).toMatchObject({ code: -32021 });
    const unknown = await modernPost(url, 'tasks/get', { taskId: 'no-such-task', _meta: modernMeta(WITH_TASKS) });
    expect(unknown.status).toBe(200);
    expect(((await unknown.json()) as Message).error).toMatchObject({ code: -32602 });
  });

  it('requires Mcp-Name equal to params.taskId on tasks/get, tasks/update and tasks/cancel (400, -32020 otherwise)', async () => {
    const url = `${servers.modes}/tasks-2026?run=${crypto.randomUUID()}`;
    const call = { name: 'slow-steps', arguments: { steps: 1, stepMs: 0 }, _meta: modernMeta(WITH_TASKS) };
    const { taskId } = (await modernRequest(url, 'tools/call', call)).result as { taskId: string };
    for (const [method, extra] of [
      ['tasks/get', {}],
      ['tasks/update', { inputResponses: {} }],
      ['tasks/cancel', {}],
    ] as const) {
      const params = { taskId, ...extra, _meta: modernMeta(WITH_TASKS) };
      for (const name of [null, 'another-task']) {
        const response = await modernPost(url, method, params, { 'mcp-name': name });
        expect(response.status).toBe(400);
        expect(((await response.json()) as Message).error).toMatchObject({ code: -32020 });
      }
      expect((await modernPost(url, method, params)).status).toBe(200);
    }
  });
});

describe('2026-07-28 task server over stdio: task notifications', () => {
  it('acknowledges subscriptions/listen without taskIds: it does not push notifications/tasks, so clients poll', async () => {
    const peer = stdioTaskPeer(taskEntry, ['--revision', '2026-07-28']);
    try {
      peer.write({
        jsonrpc: '2.0',
        id: 1,
        method: 'subscriptions/listen',
        params: { notifications: { taskIds: ['any-task'] }, _meta: modernMeta(WITH_TASKS) },
      });
      const ack = await vi.waitFor(() => {
        const found = peer.notifications.find(
          (message) => message.method === 'notifications/subscriptions/acknowledged',
        );
        if (found === undefined) throw new Error('no acknowledgement yet');
        return found;
      });
      expect((ack.params as { notifications: Record<string, unknown> }).notifications).toEqual({});
    } finally {
      await peer.close();
    }
  });
});

describe('2026-07-28 task server over stdio: a 2025 initialize connection', () => {
  it('serves the same tools, the task-only ones answering an isError result that names the extension', async () => {
    const peer = stdioTaskPeer(taskEntry, ['--revision', '2026-07-28']);
    try {
      await peer.initialize();
      const call = (name: string, args: Record<string, unknown>) =>
        peer.request('tools/call', { name, arguments: args });
      const refused = await call('slow-steps', {});
      expect(refused.result).toMatchObject({
        isError: true,
        content: [{ text: `slow-steps needs the ${TASKS} extension (protocol revision 2026-07-28)` }],
      });
      expect((await call('maybe-task', { text: 'old' })).result).toMatchObject({ content: [{ text: 'echo: old' }] });
    } finally {
      await peer.close();
    }
  });
});
