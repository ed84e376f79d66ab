import { describe, expect, it } from 'vitest';
import {
  Client,
  type ClientOptions,
  LimitError,
  McpError,
  RpcError,
  StreamableHttpTransport,
  type TaskReference,
} from '../../../src/index.js';
import { useTaskServers } from './task-peers.js';

// The client side of the 2026-07-28 Tasks extension (io.modelcontextprotocol/tasks, SEP-2663) against
// test-servers/tasks/modern-task-server.mjs, over stdio and Streamable HTTP (/tasks-2026 on the modes server).

const { servers, open, transports, connect: connectTo } = useTaskServers('2026-07-28');

const answer = (text: string) => ({ action: 'accept' as const, content: { answer: text } });

describe.each(transports)('2026-07-28 tasks over %s', (_name, transport) => {
  const connect = (options?: ClientOptions) => connectTo(transport(), options);

  it('callTool follows a task to its result, reporting each status through onTaskStatus and onProgress', async () => {
    const client = await connect();
    const statuses: TaskReference[] = [];
    const messages: (string | undefined)[] = [];
    const result = await client.callTool(
      'slow-steps',
      { steps: 3, stepMs: 30 },
      { onTaskStatus: (task) => statuses.push(task), onProgress: ({ message }) => messages.push(message) },
    );
    expect(result.text).toBe('done after 3 steps');
    expect(result.isError).toBe(false);
    expect(statuses.at(0)?.status).toBe('working');
    expect(statuses.at(-1)?.status).toBe('completed');
    expect(new Set(statuses.map((task) => task.taskId)).size).toBe(1);
    expect(messages).toContain('step 1 of 3');
  });

  it('declares the extension, so a tool that may run either way runs as a task', async () => {
    const client = await connect();
    const statuses: TaskReference[] = [];
    const result = await client.callTool('maybe-task', { text: 'hi' }, { onTaskStatus: (task) => statuses.push(task) });
    expect(result.text).toBe('echo: hi');
    expect(statuses.length).toBeGreaterThan(0);
  });

  it('answers a task’s input requests with the elicitation handler (tasks/update), each key once', async () => {
    const asked: string[] = [];
    const client = await connect({
      elicitation: (request) => {
        asked.push(request.message);
        return answer(`a${asked.length}`);
      },
    });
    const result = await client.callTool('ask-mid-task', { questions: 2 });
    expect(asked).toEqual(['Question 1 of 2', 'Question 2 of 2']);
    expect(JSON.parse(result.text)).toEqual(['a1', 'a2']);
  });

  it('answers input asked all at once, and the multi-round-trip before a task', async () => {
    const client = await connect({
      elicitation: ({ message }) =>
        message === 'Start the task?' ? { action: 'accept', content: { confirm: true } } : answer('x'),
    });
    expect(JSON.parse((await client.callTool('ask-mid-task', { questions: 3, together: true })).text)).toEqual([
      'x',
      'x',
      'x',
    ]);
    expect((await client.callTool('confirm-then-task', { steps: 2 })).text).toBe('confirmed, done after 2 steps');
  });

  it('bounds a task’s inputs: more at once than limits.maxInputRequests is a LimitError', async () => {
    const client = await connect({ elicitation: () => answer('x'), limits: { maxInputRequests: 2 } });
    const error = await client.callTool('ask-mid-task', { questions: 3, together: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ limit: 'limits.maxInputRequests', value: 2 });
  });

  it('bounds a task’s input rounds by limits.maxInputRounds', async () => {
    const client = await connect({ elicitation: () => answer('x'), limits: { maxInputRounds: 1 } });
    const error = await client.callTool('ask-mid-task', { questions: 2 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ limit: 'limits.maxInputRounds', value: 1 });
  });

  it('a failed task rejects with the server’s error; a tool error is an isError result', async () => {
    const client = await connect();
    const error = await client.callTool('fail-task', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32603, rpcMessage: 'simulated failure' });
    const result = await client.callTool('fail-task', { how: 'tool-error' });
    expect(result.isError).toBe(true);
  });

  it('aborting callTool cancels the task with tasks/cancel', async () => {
    const client = await connect();
    const controller = new AbortController();
    let taskId: string | undefined;
    const call = client.callTool(
      'cancellable',
      { maxMs: 20_000, stepMs: 20 },
      {
        signal: controller.signal,
        onTaskStatus: (task) => {
          taskId = task.taskId;
          controller.abort(new Error('given up'));
        },
      },
    );
    await expect(call).rejects.toThrow('given up');
    await expect.poll(async () => taskId && (await client.tasks.get(taskId)).status).toBe('cancelled');
  });

  it('a call’s maxTotalTimeout bounds the whole wait, and cancels the task', async () => {
    const client = await connect();
    let taskId: string | undefined;
    const error = await client
      .callTool(
        'cancellable',
        { maxMs: 20_000 },
        { maxTotalTimeout: 300, onTaskStatus: (task) => (taskId = task.taskId) },
      )
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'TimeoutError' });
    await expect.poll(async () => taskId && (await client.tasks.get(taskId)).status).toBe('cancelled');
  });

  it('client.tasks: start returns a plain reference; get, result and cancel take its id', async () => {
    const client = await connect();
    const started = await client.tasks.start('slow-steps', { steps: 2, stepMs: 20 });
    if (!('taskId' in started)) throw new Error('expected a task');
    expect(JSON.parse(JSON.stringify(started))).toEqual(started);
    expect(started.status).toBe('working');
    expect((await client.tasks.get(started.taskId)).taskId).toBe(started.taskId);
    expect((await client.tasks.result(started.taskId)).text).toBe('done after 2 steps');

    const long = await client.tasks.start('cancellable', { maxMs: 20_000 });
    if (!('taskId' in long)) throw new Error('expected a task');
    await client.tasks.cancel(long.taskId);
    expect((await client.tasks.get(long.taskId)).status).toBe('cancelled');
    await expect(client.tasks.result(long.taskId)).rejects.toBeInstanceOf(McpError);
  });

  it('client.tasks.start gives the result itself when the server answers without a task', async () => {
    const client = await connect();
    const started = await client.tasks.start('echo', { text: 'now' });
    expect('content' in started && started.text).toBe('now');
  });

  it('tasks.list is refused in 2026-07-28, which has none', async () => {
    const client = await connect();
    await expect(client.tasks.list()).rejects.toBeInstanceOf(McpError);
  });
});

describe('2026-07-28 tasks over Streamable HTTP: the Mcp-Name header', () => {
  it('names the task in Mcp-Name on tasks/get, tasks/update and tasks/cancel', async () => {
    /** Each POST's JSON-RPC method and its Mcp-Name header. */
    const posts: { method: string; name: string | null }[] = [];
    const recordingFetch: typeof fetch = async (input, init) => {
      if (init?.method === 'POST' && typeof init.body === 'string') {
        const { method } = JSON.parse(init.body) as { method?: string };
        if (method) posts.push({ method, name: new Headers(init.headers).get('mcp-name') });
      }
      return fetch(input, init);
    };
    const client = await connectTo(
      new StreamableHttpTransport(`${servers.modes}/tasks-2026?run=${crypto.randomUUID()}`, { fetch: recordingFetch }),
      { elicitation: () => answer('yes') },
    );
    let taskId: string | undefined;
    await client.callTool('ask-mid-task', { questions: 1 }, { onTaskStatus: (task) => (taskId ??= task.taskId) });
    const long = await client.tasks.start('cancellable', { maxMs: 20_000 });
    if (!('taskId' in long)) throw new Error('expected a task');
    await client.tasks.cancel(long.taskId);
    const sentFor = (method: string) => posts.filter((post) => post.method === method);
    expect(taskId).toBeDefined();
    for (const method of ['tasks/get', 'tasks/update']) {
      expect(sentFor(method).length, method).toBeGreaterThan(0);
      expect(new Set(sentFor(method).map((post) => post.name)), method).toEqual(new Set([taskId]));
    }
    expect(sentFor('tasks/cancel')).toEqual([{ method: 'tasks/cancel', name: long.taskId }]);
  });
});

describe('2026-07-28 tasks across processes', () => {
  it('a task started by one client is collected by another, as a later process would (Streamable HTTP)', async () => {
    const url = `${servers.modes}/tasks-2026?run=${crypto.randomUUID()}`;
    const first = new Client(new StreamableHttpTransport(url), { eraCache: new Map() });
    open.push(first);
    await first.connect();
    const started = await first.tasks.start('slow-steps', { steps: 2, stepMs: 20 });
    if (!('taskId' in started)) throw new Error('expected a task');
    await first.close();
    const stored = JSON.stringify(started);
    const later = new Client(new StreamableHttpTransport(url), { eraCache: new Map() });
    open.push(later);
    await later.connect();
    expect((await later.tasks.result(JSON.parse(stored).taskId)).text).toBe('done after 2 steps');
  });
});
