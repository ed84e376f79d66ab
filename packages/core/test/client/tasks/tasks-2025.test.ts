import { StdioTransport } from '@mcp/node-stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error test-servers/ is plain JS without declarations
import { EVERYTHING_STDIO_ARGS, startEverythingHttp } from '../../../../../test-servers/tasks/everything.mjs';
import {
  CapabilityError,
  type ClientOptions,
  McpError,
  RpcError,
  StreamableHttpTransport,
  type TaskReference,
} from '../../../src/index.js';
import { methodsOf, recording, type Transport, useTaskServers } from './task-peers.js';

// The client side of 2025-11-25 core tasks (experimental), the client as requestor: our v1-SDK task server
// (test-servers/tasks/v1-task-server.mjs, stdio and /tasks-2025 on the modes server) and server-everything's
// simulate-research-query (plain and ambiguous: true), each over stdio and Streamable HTTP.

const { servers, transports, connect: connectWith } = useTaskServers('2025-11-25');

describe.each(transports)('2025-11-25 tasks (v1 SDK task server) over %s', (_name, transport) => {
  const connect = (options?: ClientOptions) => connectWith(transport(), options);

  it('callTool calls a required-task tool as a task (task: {ttl}) and returns its result, reporting statuses', async () => {
    const client = await connect();
    const statuses: TaskReference[] = [];
    const messages: (string | undefined)[] = [];
    const result = await client.callTool(
      'slow-steps',
      { steps: 3, stepMs: 30 },
      { onTaskStatus: (task) => statuses.push(task), onProgress: ({ message }) => messages.push(message) },
    );
    expect(result.text).toBe('done after 3 steps');
    expect(statuses.at(0)?.status).toBe('working');
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses.map((task) => task.taskId)).size).toBe(1);
    expect(messages.length).toBeGreaterThan(0);
  });

  it('calls an optional-task tool plainly, and as a task when the call asks (task: true)', async () => {
    const client = await connect();
    const statuses: TaskReference[] = [];
    expect((await client.callTool('maybe-task', { text: 'a' }, { onTaskStatus: (t) => statuses.push(t) })).text).toBe(
      'echo: a',
    );
    expect(statuses).toEqual([]);
    const asTask = await client.callTool(
      'maybe-task',
      { text: 'b' },
      { task: true, onTaskStatus: (t) => statuses.push(t) },
    );
    expect(asTask.text).toBe('echo: b');
    expect(statuses.length).toBeGreaterThan(0);
  });

  it('on input_required calls tasks/result and answers the related-task elicitation with the same handler', async () => {
    const asked: string[] = [];
    const client = await connect({
      elicitation: ({ message }) => {
        asked.push(message);
        return { action: 'accept', content: { answer: 'teal' } };
      },
    });
    const result = await client.callTool('ask-mid-task', { question: 'Which colour?' });
    expect(asked).toEqual(['Which colour?']);
    expect(result.text).toBe('answer: teal');
  });

  it('answers a related-task elicitation sent outside any request (over HTTP on the GET stream)', async () => {
    const client = await connect({ elicitation: () => ({ action: 'accept', content: { answer: 'direct' } }) });
    const result = await client.callTool('ask-mid-task', { deliver: 'direct' });
    expect(result.text).toBe('answer: direct');
  });

  it('answers an elicitation that ignores a task field as a plain ElicitResult', async () => {
    const client = await connect({ elicitation: () => ({ action: 'accept', content: { answer: 'plain' } }) });
    const result = await client.callTool('elicit-with-task-field', {});
    expect(result.isError).toBe(false);
  });

  it('a failed task gives the stored isError result, or rejects with the server’s error', async () => {
    const client = await connect();
    expect((await client.callTool('fail-task', { how: 'tool-error' })).isError).toBe(true);
    await expect(client.callTool('fail-task', { how: 'rpc-error' })).rejects.toBeInstanceOf(RpcError);
  });

  it('aborting callTool sends tasks/cancel for the task, never notifications/cancelled', async () => {
    const { transport: wire, sent } = recording(transport());
    const client = await connectWith(wire);
    const controller = new AbortController();
    let taskId: string | undefined;
    const call = client.callTool(
      'cancellable',
      { maxMs: 20_000 },
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
    const methods = methodsOf(sent);
    expect(methods).toContain('tasks/cancel');
    expect(methods).not.toContain('notifications/cancelled');
  });

  it('a plain call refused with -32600 "task augmentation required" is sent once more as a task, and only once', async () => {
    const { transport: wire, sent } = recording(transport());
    const client = await connectWith(wire);
    const statuses: TaskReference[] = [];
    const result = await client.callTool(
      'strict-task',
      { text: 'hi' },
      { onTaskStatus: (task) => statuses.push(task) },
    );
    expect(result.text).toBe('strict: hi');
    const calls = sent.filter((message) => (message as { method?: string }).method === 'tools/call');
    expect(calls.map((call) => (call as { params: { task?: unknown } }).params.task !== undefined)).toEqual([
      false,
      true,
    ]);
    expect(statuses.length).toBeGreaterThan(0);

    const before = methodsOf(sent).filter((method) => method === 'tools/call').length;
    const error = await client.callTool('never-task', {}).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32600 });
    expect(methodsOf(sent).filter((method) => method === 'tools/call').length - before).toBe(2);
  });

  it('client.tasks: start, get, result, cancel and list', async () => {
    const client = await connect();
    const started = await client.tasks.start('slow-steps', { steps: 2, stepMs: 20 }, { ttl: 30_000 });
    if (!('taskId' in started)) throw new Error('expected a task');
    expect(started).toMatchObject({ status: 'working', ttl: 30_000 });
    expect(JSON.parse(JSON.stringify(started))).toEqual(started);
    expect((await client.tasks.get(started.taskId)).taskId).toBe(started.taskId);
    expect((await client.tasks.result(started.taskId)).text).toBe('done after 2 steps');
    const listed = await client.tasks.list();
    expect(listed.map((task) => task.taskId)).toContain(started.taskId);

    const long = await client.tasks.start('cancellable', { maxMs: 20_000 });
    if (!('taskId' in long)) throw new Error('expected a task');
    await client.tasks.cancel(long.taskId);
    expect((await client.tasks.get(long.taskId)).status).toBe('cancelled');
    await expect(client.tasks.result(long.taskId)).rejects.toBeInstanceOf(McpError);
  });
});

describe('2025-11-25 tasks.list needs the server’s tasks.list capability', () => {
  it('is refused with a CapabilityError by a server without tasks', async () => {
    const client = await connectWith(new StreamableHttpTransport(`${servers.modes}/stateful`));
    await expect(client.tasks.list()).rejects.toBeInstanceOf(CapabilityError);
  });
});

describe('server-everything simulate-research-query (2025-11-25 tasks)', () => {
  let http: { url: string; stop: () => Promise<void> } | undefined;
  beforeAll(async () => {
    http = await startEverythingHttp();
  });
  afterAll(() => http?.stop());

  const everything: [string, () => Transport][] = [
    [
      'stdio',
      () => new StdioTransport({ command: process.execPath, args: [...EVERYTHING_STDIO_ARGS], closeTimeout: 500 }),
    ],
    ['Streamable HTTP', () => new StreamableHttpTransport((http as { url: string }).url)],
  ];

  it.each(everything)(
    'callTool runs the research as a task to its report over %s',
    async (_name, transport) => {
      const client = await connectWith(transport());
      const result = await client.callTool('simulate-research-query', { topic: 'tides' });
      expect(result.text).toContain('# Research Report: tides');
    },
    30_000,
  );

  it.each(everything)(
    'with ambiguous: true, answers its mid-task elicitation with the app’s handler over %s',
    async (_name, transport) => {
      const asked: string[] = [];
      const client = await connectWith(transport(), {
        elicitation: ({ message }) => {
          asked.push(message);
          return { action: 'accept', content: { interpretation: 'snake' } };
        },
      });
      const result = await client.callTool('simulate-research-query', { topic: 'python', ambiguous: true });
      expect(asked).toHaveLength(1);
      expect(result.text).toContain('# Research Report: python (snake)');
    },
    30_000,
  );
});
