import { InMemoryTaskMessageQueue, InMemoryTaskStore, isTerminal } from '@modelcontextprotocol/sdk/experimental/tasks';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitResultSchema, ErrorCode, McpError, RELATED_TASK_META_KEY } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { errorResult, messageOf, textResult } from '../reference/tool-results.mjs';
import { ANSWER_SCHEMA, answerText, pause, STEP_ARGS, stepMessage } from './task-work.mjs';

/** Who the 2025-11-25 task server says it is. */
export const V1_TASK_SERVER_INFO = Object.freeze({ name: 'mcp-task-server-2025', version: '1.0.0' });

/**
 * What the server declares: tools, and tasks for `tools/call` with `tasks/list`
 * and `tasks/cancel` (2025-11-25, basic/utilities/tasks § Capabilities).
 */
export const V1_TASK_CAPABILITIES = Object.freeze({
  tools: {},
  tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
});

/** The `pollInterval` every task suggests, in ms: short, so tests poll quickly. */
export const V1_POLL_INTERVAL = 50;

/** The `ttl` of a task whose request named none, in ms. */
export const V1_DEFAULT_TTL = 60_000;

/**
 * The 2025-11-25 task server on the official v1 SDK's experimental task API
 * (`McpServer.experimental.tasks.registerToolTask`, `InMemoryTaskStore`,
 * `InMemoryTaskMessageQueue`): the SDK answers `tasks/get`, `tasks/result`,
 * `tasks/list` and `tasks/cancel` itself, delivers the requests a task queues
 * (tagged `io.modelcontextprotocol/related-task`) on the `tasks/result` stream,
 * and polls an `optional` tool's own task when the call was not augmented.
 * Make one per connection (stdio process or HTTP session): tasks live in it.
 * @returns {McpServer}
 */
export function createV1TaskServer() {
  const server = new McpServer(
    { ...V1_TASK_SERVER_INFO },
    {
      capabilities: V1_TASK_CAPABILITIES,
      taskStore: new InMemoryTaskStore(),
      taskMessageQueue: new InMemoryTaskMessageQueue(),
    },
  );
  const tasks = server.experimental.tasks;

  tasks.registerToolTask(
    'slow-steps',
    {
      description:
        'Works through `steps` steps of `stepMs` each, saying "step i of n" in statusMessage. Task required.',
      inputSchema: STEP_ARGS,
      execution: { taskSupport: 'required' },
    },
    taskHandler(async ({ steps, stepMs }, work) => {
      for (let step = 1; step <= steps; step++) {
        if (!(await work.status(stepMessage(step, steps)))) return;
        await pause(stepMs);
      }
      await work.complete(textResult(`done after ${steps} steps`));
    }),
  );

  tasks.registerToolTask(
    'maybe-task',
    {
      description:
        'Echoes `text` after `stepMs`. Task optional: unaugmented, the SDK polls its own task and answers inline.',
      inputSchema: { text: z.string(), stepMs: STEP_ARGS.stepMs },
      execution: { taskSupport: 'optional' },
    },
    taskHandler(async ({ text, stepMs }, work) => {
      await pause(stepMs);
      await work.complete(textResult(`echo: ${text}`));
    }),
  );

  tasks.registerToolTask(
    'ask-mid-task',
    {
      description:
        'After one step asks `question` with elicitation/create tagged related-task (status input_required), then completes with the answer. deliver "queued" (default): the request waits for tasks/result and travels on its stream. deliver "direct": sent at once outside any request (over HTTP on the GET stream).',
      inputSchema: {
        question: z.string().default('Which colour?'),
        deliver: z.enum(['queued', 'direct']).default('queued'),
        stepMs: STEP_ARGS.stepMs,
      },
      execution: { taskSupport: 'required' },
    },
    taskHandler(async ({ question, deliver, stepMs }, work) => {
      if (!(await work.status('preparing the question'))) return;
      await pause(stepMs);
      const params = { mode: 'form', message: question, requestedSchema: ANSWER_SCHEMA };
      let answer;
      if (deliver === 'queued') {
        answer = await work.extra.sendRequest({ method: 'elicitation/create', params }, ElicitResultSchema, {
          relatedTask: { taskId: work.taskId },
        });
      } else {
        // The spec lets task messages travel on any stream (2025-11-25, basic/utilities/tasks
        // § Input Required Status); the tag is still required.
        await work.extra.taskStore.updateTaskStatus(work.taskId, 'input_required', 'asking directly');
        answer = await server.server.request(
          {
            method: 'elicitation/create',
            params: { ...params, _meta: { [RELATED_TASK_META_KEY]: { taskId: work.taskId } } },
          },
          ElicitResultSchema,
        );
      }
      if (!(await work.status(`got the answer: ${answerText(answer)}`))) return;
      await pause(stepMs);
      await work.complete(textResult(`answer: ${answerText(answer)}`));
    }),
  );

  tasks.registerToolTask(
    'fail-task',
    {
      description:
        'Fails after one step. how "tool-error" (default): status failed, tasks/result the isError result. how "rpc-error": status failed with no result, so tasks/result answers a JSON-RPC error.',
      inputSchema: { how: z.enum(['tool-error', 'rpc-error']).default('tool-error'), stepMs: STEP_ARGS.stepMs },
      execution: { taskSupport: 'required' },
    },
    taskHandler(async ({ how, stepMs }, work) => {
      if (!(await work.status('about to fail'))) return;
      await pause(stepMs);
      if (how === 'rpc-error') await work.extra.taskStore.updateTaskStatus(work.taskId, 'failed', 'simulated failure');
      else await work.extra.taskStore.storeTaskResult(work.taskId, 'failed', errorResult('simulated failure'));
    }),
  );

  tasks.registerToolTask(
    'cancellable',
    {
      description:
        'Works in steps of `stepMs` for up to `maxMs` (statusMessage "working for Nms"), stopping at the next step once cancelled; completes if never cancelled.',
      inputSchema: { maxMs: z.number().int().min(0).max(120_000).default(30_000), stepMs: STEP_ARGS.stepMs },
      execution: { taskSupport: 'required' },
    },
    taskHandler(async ({ maxMs, stepMs }, work) => {
      const started = Date.now();
      while (Date.now() - started < maxMs) {
        if (!(await work.status(`working for ${Date.now() - started}ms`))) return;
        await pause(Math.max(stepMs, 1));
      }
      await work.complete(textResult(`not cancelled within ${maxMs}ms`));
    }),
  );

  // A client that did not declare tasks.requests.elicitation.create must serve
  // the request normally and ignore `task` (2025-11-25, basic/utilities/tasks
  // § Task Support and Handling); a CreateTaskResult fails the ElicitResult parse.
  server.registerTool(
    'elicit-with-task-field',
    {
      description:
        'Sends elicitation/create carrying `task: {ttl: 60000}` whatever the client declared; returns "answer: <answer>" from the plain ElicitResult it expects back.',
      inputSchema: {},
    },
    async (_args, extra) => {
      const answer = await extra.sendRequest(
        {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Answer, ignoring task',
            requestedSchema: ANSWER_SCHEMA,
            task: { ttl: 60_000 },
          },
        },
        ElicitResultSchema,
      );
      return textResult(`answer: ${answerText(answer)}`);
    },
  );

  server.registerTool(
    'echo',
    { description: 'Echoes `text` at once. No task support (forbidden).', inputSchema: { text: z.string() } },
    async ({ text }) => textResult(text),
  );

  tasks.registerToolTask(
    'strict-task',
    {
      description:
        'Echoes `text` as a task. Listed as optional, yet a call without `task` is refused with -32600 "task augmentation required", as some servers do.',
      inputSchema: { text: z.string() },
      execution: { taskSupport: 'optional' },
    },
    taskHandler(async ({ text }, work) => {
      await work.complete(textResult(`strict: ${text}`));
    }),
  );
  server.registerTool(
    'never-task',
    {
      description: 'Refused with -32600 "task augmentation required" however it is called, augmented or not.',
      inputSchema: {},
    },
    async () => textResult('unreachable'),
  );
  refuseInvalid(server, (params) => params?.name === 'never-task' || (params?.name === 'strict-task' && !params.task));
  return server;
}

/**
 * Makes each `tools/call` whose params `refused` picks fail with -32600 "task
 * augmentation required" (2025-11-25 basic/utilities/tasks: some servers answer
 * so), where the SDK would run an optional tool inline. The SDK's own handler
 * is wrapped through its (private) handler map: it has no hook for this.
 * @param {McpServer} server
 * @param {(params: any) => boolean} refused
 */
function refuseInvalid(server, refused) {
  const handlers = server.server._requestHandlers;
  const callTool = handlers.get('tools/call');
  handlers.set('tools/call', (request, extra) => {
    if (refused(request.params)) {
      throw new McpError(ErrorCode.InvalidRequest, `Task augmentation required for ${request.params.name}`);
    }
    return callTool(request, extra);
  });
}

/**
 * What a task's background work may do: set its status message (false once
 * the task is terminal, e.g. cancelled, so the work stops), store its result,
 * and send requests through the SDK (`extra.sendRequest`).
 * @typedef {object} V1TaskWork
 * @property {string} taskId
 * @property {any} extra the createTask handler's extra (taskStore, sendRequest)
 * @property {(message: string) => Promise<boolean>} status
 * @property {(result: import('../reference/tool-context.mjs').CallToolResult) => Promise<void>} complete
 */

/**
 * The SDK's three task callbacks around one piece of background work: create
 * the task (the request's `ttl` or {@link V1_DEFAULT_TTL}, {@link V1_POLL_INTERVAL}),
 * start `run` without awaiting it, and read status and result from the store.
 * Work that throws fails the task with its message and no result.
 * @param {(args: any, work: V1TaskWork) => Promise<void>} run
 * @returns {import('@modelcontextprotocol/sdk/experimental/tasks').ToolTaskHandler<any>}
 */
function taskHandler(run) {
  return {
    createTask: async (args, extra) => {
      const task = await extra.taskStore.createTask({
        ttl: extra.taskRequestedTtl ?? V1_DEFAULT_TTL,
        pollInterval: V1_POLL_INTERVAL,
      });
      const store = extra.taskStore;
      const isOpen = async () => {
        const current = await store.getTask(task.taskId);
        return current !== null && current !== undefined && !isTerminal(current.status);
      };
      /** @type {V1TaskWork} */
      const work = {
        taskId: task.taskId,
        extra,
        status: async (message) => {
          if (!(await isOpen())) return false;
          await store.updateTaskStatus(task.taskId, 'working', message);
          return true;
        },
        complete: async (result) => {
          if (await isOpen()) await store.storeTaskResult(task.taskId, 'completed', result);
        },
      };
      run(args, work).catch(async (error) => {
        if (await isOpen().catch(() => false)) await store.updateTaskStatus(task.taskId, 'failed', messageOf(error));
      });
      return { task };
    },
    getTask: async (_args, extra) => /** @type {any} */ (await extra.taskStore.getTask(extra.taskId)),
    getTaskResult: async (_args, extra) => /** @type {any} */ (await extra.taskStore.getTaskResult(extra.taskId)),
  };
}
