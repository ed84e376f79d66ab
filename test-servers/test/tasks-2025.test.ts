import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServers } from '../http/serve.mjs';
import { messageOf, post, readEvents, resultText } from './http-peer.js';
import { HttpTaskPeer, isTerminal, pollTask, stdioTaskPeer, type TaskPeer } from './task-peers.js';

const RELATED_TASK = 'io.modelcontextprotocol/related-task';
const taskEntry = fileURLToPath(new URL('../tasks/stdio.mjs', import.meta.url));

let servers: Awaited<ReturnType<typeof startHttpServers>>;
beforeAll(async () => {
  servers = await startHttpServers();
});
afterAll(() => servers.close());

const transports: [string, () => Promise<TaskPeer>][] = [
  [
    'stdio',
    async () => {
      const peer = stdioTaskPeer(taskEntry, ['--revision', '2025-11-25']);
      await peer.initialize();
      return peer;
    },
  ],
  ['Streamable HTTP /tasks-2025', () => HttpTaskPeer.open(`${servers.modes}/tasks-2025`)],
];

describe.each(transports)('2025-11-25 task server (v1 SDK) over %s', (_name, connect) => {
  let peer: TaskPeer;
  beforeAll(async () => {
    peer = await connect();
  });
  afterAll(() => peer.close());

  const startTask = async (name: string, args: Record<string, unknown> = {}, task: Record<string, unknown> = {}) => {
    const response = await peer.request('tools/call', { name, arguments: args, task });
    const created = (response.result as { task?: Record<string, unknown> } | undefined)?.task;
    if (created === undefined) throw new Error(`no CreateTaskResult: ${JSON.stringify(response)}`);
    return created;
  };
  const get = (taskId: unknown) => () => peer.request('tasks/get', { taskId });

  it('lists each tool with its execution.taskSupport', async () => {
    const { result } = await peer.request('tools/list', {});
    const support = Object.fromEntries(
      (result as { tools: { name: string; execution?: { taskSupport?: string } }[] }).tools.map((tool) => [
        tool.name,
        tool.execution?.taskSupport,
      ]),
    );
    expect(support).toEqual({
      'slow-steps': 'required',
      'maybe-task': 'optional',
      'ask-mid-task': 'required',
      'fail-task': 'required',
      cancellable: 'required',
      'elicit-with-task-field': 'forbidden',
      echo: 'forbidden',
      'strict-task': 'optional',
      'never-task': 'forbidden',
    });
  });

  it('refuses strict-task without `task`, and never-task either way, with -32600 "task augmentation required"', async () => {
    const plain = await peer.request('tools/call', { name: 'strict-task', arguments: { text: 'x' } });
    expect(plain.error).toMatchObject({ code: -32600, message: expect.stringContaining('Task augmentation required') });
    const augmented = await peer.request('tools/call', { name: 'strict-task', arguments: { text: 'x' }, task: {} });
    expect(augmented.error).toBeUndefined();
    expect(augmented.result).toMatchObject({ task: { taskId: expect.any(String) } });
    const never = await peer.request('tools/call', { name: 'never-task', arguments: {}, task: {} });
    expect(never.error).toMatchObject({ code: -32600 });
  });

  it('answers a required-task tool called without `task` with an isError result naming -32601, not a JSON-RPC error', async () => {
    const response = await peer.request('tools/call', { name: 'slow-steps', arguments: {} });
    expect(response.error).toBeUndefined();
    expect(response.result).toMatchObject({ isError: true });
    expect(resultText(response)).toBe(
      "MCP error -32601: Tool slow-steps requires task augmentation (taskSupport: 'required')",
    );
  });

  it('runs a task: CreateTaskResult with the requested ttl, status messages on tasks/get, the result on tasks/result', async () => {
    const task = await startTask('slow-steps', { steps: 3, stepMs: 30 }, { ttl: 5_000 });
    expect(task).toMatchObject({ status: 'working', ttl: 5_000, pollInterval: 50 });
    expect(typeof task.taskId).toBe('string');
    expect(Date.parse(task.createdAt as string)).not.toBeNaN();
    const messages = new Set<unknown>();
    const done = await pollTask(get(task.taskId), (current) => {
      messages.add(current.statusMessage);
      return isTerminal(current);
    });
    // Whichever polls land where, each sees a step's message; the last one stays after completion.
    expect(done).toMatchObject({ taskId: task.taskId, status: 'completed', statusMessage: 'step 3 of 3' });
    for (const message of messages) expect(['step 1 of 3', 'step 2 of 3', 'step 3 of 3']).toContain(message);
    const result = await peer.request('tasks/result', { taskId: task.taskId });
    expect(resultText(result)).toBe('done after 3 steps');
    expect((result.result as { _meta?: Record<string, unknown> })._meta?.[RELATED_TASK]).toEqual({
      taskId: task.taskId,
    });
  });

  it('answers an optional-task tool inline when not augmented, with a task when it is', async () => {
    expect(resultText(await peer.request('tools/call', { name: 'maybe-task', arguments: { text: 'hi' } }))).toBe(
      'echo: hi',
    );
    const task = await startTask('maybe-task', { text: 'later' });
    await pollTask(get(task.taskId), isTerminal);
    expect(resultText(await peer.request('tasks/result', { taskId: task.taskId }))).toBe('echo: later');
  });

  it('asks for input mid-task: input_required, then tasks/result carries the elicitation tagged related-task', async () => {
    const asked: Record<string, unknown>[] = [];
    peer.onRequest = (request) => {
      asked.push(request);
      return { action: 'accept', content: { answer: 'blue' } };
    };
    const task = await startTask('ask-mid-task', { question: 'Favourite colour?' });
    const waiting = await pollTask(get(task.taskId), (current) => current.status !== 'working');
    expect(waiting.status).toBe('input_required');
    const result = await peer.request('tasks/result', { taskId: task.taskId });
    expect(resultText(result)).toBe('answer: blue');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      method: 'elicitation/create',
      params: { mode: 'form', message: 'Favourite colour?', _meta: { [RELATED_TASK]: { taskId: task.taskId } } },
    });
    expect(await pollTask(get(task.taskId), isTerminal)).toMatchObject({ status: 'completed' });
  });

  it('fails a task: status failed, tasks/result the isError result (tool-error) or a JSON-RPC error (rpc-error)', async () => {
    const toolError = await startTask('fail-task');
    expect(await pollTask(get(toolError.taskId), isTerminal)).toMatchObject({ status: 'failed' });
    const result = await peer.request('tasks/result', { taskId: toolError.taskId });
    expect(result.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'simulated failure' }] });

    const rpcError = await startTask('fail-task', { how: 'rpc-error' });
    expect(await pollTask(get(rpcError.taskId), isTerminal)).toMatchObject({
      status: 'failed',
      statusMessage: 'simulated failure',
    });
    const error = await peer.request('tasks/result', { taskId: rpcError.taskId });
    expect(error.error).toMatchObject({ code: -32603 });
  });

  it('cancels a task with tasks/cancel; cancelling it again, or an unknown task, is -32602', async () => {
    const task = await startTask('cancellable', { maxMs: 20_000 });
    const cancelled = await peer.request('tasks/cancel', { taskId: task.taskId });
    expect(cancelled.result).toMatchObject({ taskId: task.taskId, status: 'cancelled' });
    expect((await get(task.taskId)()).result).toMatchObject({ status: 'cancelled' });
    expect((await peer.request('tasks/result', { taskId: task.taskId })).error).toMatchObject({
      code: -32603,
      message: `Task ${task.taskId} has no result stored`,
    });
    expect((await peer.request('tasks/cancel', { taskId: task.taskId })).error).toMatchObject({ code: -32602 });
    expect((await peer.request('tasks/get', { taskId: 'no-such-task' })).error).toMatchObject({ code: -32602 });
    expect((await peer.request('tasks/result', { taskId: 'no-such-task' })).error).toMatchObject({ code: -32602 });
  });

  it('sends a server request with a `task` field the client did not ask for, and takes a plain ElicitResult', async () => {
    const asked: Record<string, unknown>[] = [];
    peer.onRequest = (request) => {
      asked.push(request);
      return { action: 'accept', content: { answer: 'plain' } };
    };
    const response = await peer.request('tools/call', { name: 'elicit-with-task-field', arguments: {} });
    expect(resultText(response)).toBe('answer: plain');
    expect(asked[0]).toMatchObject({ method: 'elicitation/create', params: { task: { ttl: 60_000 } } });
  });

  it('fails elicit-with-task-field when the client answers with a CreateTaskResult', async () => {
    peer.onRequest = () => ({ task: { taskId: 't', status: 'working', ttl: null, createdAt: '', lastUpdatedAt: '' } });
    const response = await peer.request('tools/call', { name: 'elicit-with-task-field', arguments: {} });
    expect(response.result).toMatchObject({ isError: true });
    // The ElicitResult parse failed on the missing `action`.
    expect(resultText(response)).toMatch(/invalid_value[\s\S]*"action"/);
  });

  it('lists the tasks of this connection with tasks/list', async () => {
    const task = await startTask('slow-steps', { steps: 1, stepMs: 0 });
    const { result } = await peer.request('tasks/list', {});
    expect((result as { tasks: { taskId: string }[] }).tasks.map((listed) => listed.taskId)).toContain(task.taskId);
  });
});

describe('2025-11-25 task server over Streamable HTTP: the GET stream', () => {
  it('carries notifications/tasks/status once the tools/call stream has closed; the queued elicitation waits for tasks/result', async () => {
    const peer = await HttpTaskPeer.open(`${servers.modes}/tasks-2025`);
    const stream = await fetch(peer.url, {
      headers: { accept: 'text/event-stream', ...peer.session.headers },
      signal: AbortSignal.timeout(5_000),
    });
    expect(stream.status).toBe(200);
    const created = await peer.request('tools/call', { name: 'ask-mid-task', arguments: {}, task: {} });
    const { taskId } = (created.result as { task: { taskId: string } }).task;
    const seen = await readEvents(stream, (event) => {
      const message = messageOf(event);
      return (
        message?.method === 'notifications/tasks/status' &&
        (message.params as { status?: string }).status === 'input_required'
      );
    });
    const methods = seen.map((event) => messageOf(event)?.method).filter((method) => method !== undefined);
    expect(new Set(methods)).toEqual(new Set(['notifications/tasks/status']));
    expect(messageOf(seen.at(-1)!)?.params).toMatchObject({ taskId, status: 'input_required' });
    peer.onRequest = () => ({ action: 'decline' });
    expect(resultText(await peer.request('tasks/result', { taskId }))).toBe('answer: (decline)');
    await peer.close();
  });
});

describe('2025-11-25 task server: a task request sent directly, outside tasks/result', () => {
  it('over stdio arrives at once, tagged related-task; answering it lets the task complete with no tasks/result', async () => {
    const peer = stdioTaskPeer(taskEntry, ['--revision', '2025-11-25']);
    try {
      await peer.initialize();
      const asked: Record<string, unknown>[] = [];
      peer.onRequest = (request) => {
        asked.push(request);
        return { action: 'accept', content: { answer: 'direct' } };
      };
      const created = await peer.request('tools/call', {
        name: 'ask-mid-task',
        arguments: { deliver: 'direct' },
        task: {},
      });
      const { taskId } = (created.result as { task: { taskId: string } }).task;
      expect(await pollTask(() => peer.request('tasks/get', { taskId }), isTerminal)).toMatchObject({
        status: 'completed',
      });
      expect(asked[0]).toMatchObject({ params: { _meta: { [RELATED_TASK]: { taskId } } } });
      expect(resultText(await peer.request('tasks/result', { taskId }))).toBe('answer: direct');
    } finally {
      await peer.close();
    }
  });

  it('over HTTP arrives on the GET stream; the answer POSTed back lets the task complete', async () => {
    const peer = await HttpTaskPeer.open(`${servers.modes}/tasks-2025`);
    const stream = await fetch(peer.url, {
      headers: { accept: 'text/event-stream', ...peer.session.headers },
      signal: AbortSignal.timeout(5_000),
    });
    const created = await peer.request('tools/call', {
      name: 'ask-mid-task',
      arguments: { deliver: 'direct' },
      task: {},
    });
    const { taskId } = (created.result as { task: { taskId: string } }).task;
    const events = await readEvents(stream, (event) => messageOf(event)?.method === 'elicitation/create');
    const request = messageOf(events.at(-1)!);
    expect(request).toMatchObject({ params: { _meta: { [RELATED_TASK]: { taskId } } } });
    const answered = await post(
      peer.url,
      { jsonrpc: '2.0', id: request?.id, result: { action: 'accept', content: { answer: 'via GET' } } },
      peer.session.headers,
    );
    expect(answered.status).toBe(202);
    await pollTask(() => peer.request('tasks/get', { taskId }), isTerminal);
    expect(resultText(await peer.request('tasks/result', { taskId }))).toBe('answer: via GET');
    await peer.close();
  });
});

describe('tasks/stdio.mjs', () => {
  it('refuses an unknown --revision with a message on stderr and exit code 2', () => {
    const run = spawnSync(process.execPath, [taskEntry, '--revision', '2024-11-05'], {
      encoding: 'utf8',
      timeout: 5_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('--revision must be one of 2025-11-25, 2026-07-28, got 2024-11-05\n');
    expect(run.stdout).toBe('');
  });
});
