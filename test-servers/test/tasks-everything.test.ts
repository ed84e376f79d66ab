import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING_ENTRY, startEverythingHttp } from '../tasks/everything.mjs';
import { resultText } from './http-peer.js';
import { HttpTaskPeer, isTerminal, pollTask, stdioTaskPeer, type TaskPeer } from './task-peers.js';

const RELATED_TASK = 'io.modelcontextprotocol/related-task';
/** Four stages of one second each: a task takes about 4 s. */
const TASK_TEST_TIMEOUT_MS = 20_000;

let http: Awaited<ReturnType<typeof startEverythingHttp>>;
beforeAll(async () => {
  http = await startEverythingHttp();
});
afterAll(() => http.stop());

const transports: [string, () => Promise<TaskPeer>][] = [
  [
    'stdio',
    async () => {
      const peer = stdioTaskPeer(EVERYTHING_ENTRY, ['stdio']);
      await peer.initialize();
      return peer;
    },
  ],
  ['Streamable HTTP', () => HttpTaskPeer.open(http.url)],
];

describe.each(transports)('@modelcontextprotocol/server-everything (pinned) over %s', (_name, connect) => {
  let peer: TaskPeer;
  beforeAll(async () => {
    peer = await connect();
  });
  afterAll(() => peer.close());

  const research = async (args: Record<string, unknown>) => {
    const { result } = await peer.request('tools/call', {
      name: 'simulate-research-query',
      arguments: args,
      task: { ttl: 60_000 },
    });
    return (result as { task: Record<string, unknown> }).task;
  };
  const get = (taskId: unknown) => () => peer.request('tasks/get', { taskId });

  it('declares tasks for tools/call and lists simulate-research-query with taskSupport "required"', async () => {
    const { result } = await peer.request('tools/list', {});
    const tool = (result as { tools: { name: string; execution?: unknown }[] }).tools.find(
      (listed) => listed.name === 'simulate-research-query',
    );
    expect(tool?.execution).toEqual({ taskSupport: 'required' });
  });

  it('answers the task tool called without `task` with an isError result naming -32601', async () => {
    const response = await peer.request('tools/call', {
      name: 'simulate-research-query',
      arguments: { topic: 'tides' },
    });
    expect(response.error).toBeUndefined();
    expect(resultText(response)).toContain('MCP error -32601');
    expect(resultText(response)).toContain('requires task augmentation');
  });

  it(
    'runs the research as a task to completed; tasks/result returns the report tagged related-task',
    async () => {
      const task = await research({ topic: 'tides' });
      expect(task).toMatchObject({ status: 'working', ttl: 300_000, pollInterval: 1_000 });
      const done = await pollTask(get(task.taskId), isTerminal, { pollMs: 200, limit: 60 });
      expect(done.status).toBe('completed');
      const result = await peer.request('tasks/result', { taskId: task.taskId });
      expect(resultText(result)).toContain('# Research Report: tides');
      expect((result.result as { _meta?: Record<string, unknown> })._meta?.[RELATED_TASK]).toEqual({
        taskId: task.taskId,
      });
    },
    TASK_TEST_TIMEOUT_MS,
  );

  it(
    'with ambiguous: true goes input_required and sends its elicitation on the tasks/result stream, tagged related-task',
    async () => {
      const asked: Record<string, unknown>[] = [];
      peer.onRequest = (request) => {
        if (request.method !== 'elicitation/create') return {};
        asked.push(request);
        return { action: 'accept', content: { interpretation: 'snake' } };
      };
      const task = await research({ topic: 'python', ambiguous: true });
      const waiting = await pollTask(get(task.taskId), (current) => current.status === 'input_required', {
        pollMs: 100,
        limit: 100,
      });
      expect(waiting.statusMessage).toContain('Requesting clarification');
      const result = await peer.request('tasks/result', { taskId: task.taskId });
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ params: { _meta: { [RELATED_TASK]: { taskId: task.taskId } } } });
      expect(resultText(result)).toContain('# Research Report: python (snake)');
    },
    TASK_TEST_TIMEOUT_MS,
  );
});
