import * as v from 'valibot';
import { McpError } from '../../errors/mcp-error.js';
import { ProtocolError } from '../../errors/protocol-error.js';
import { RpcError } from '../../errors/rpc-error.js';
import { JsonObjectSchema } from '../../protocol/json.js';
import { JsonRpcErrorObjectSchema } from '../../protocol/jsonrpc.js';
import { resultEntries } from '../../protocol/result.js';
import {
  CreateTaskExtensionResultSchema,
  type DetailedTask,
  extensionTaskEntries,
  type TaskReference,
} from '../../protocol/tasks.js';
import { encodeHeaderValue } from '../eras/header-values.js';
import { parseAny, parseCallTool, resultParser } from '../results/decode.js';
import type { TaskCallOptions, TaskSession, TaskWire } from './task-wire.js';

/** The fields of a 2026-07-28 task as the client reports them (`ttlMs`, `pollIntervalMs` renamed). */
function reference(
  task: Pick<
    DetailedTask,
    'taskId' | 'status' | 'statusMessage' | 'createdAt' | 'lastUpdatedAt' | 'ttlMs' | 'pollIntervalMs'
  >,
): TaskReference {
  const { taskId, status, statusMessage, createdAt, lastUpdatedAt, ttlMs, pollIntervalMs } = task;
  return {
    taskId,
    status,
    ...(statusMessage !== undefined && { statusMessage }),
    createdAt,
    lastUpdatedAt,
    ttl: ttlMs,
    ...(pollIntervalMs !== undefined && { pollInterval: pollIntervalMs }),
  };
}

const parseCreated = resultParser('tools/call', CreateTaskExtensionResultSchema, reference);
/**
 * A `tasks/get` answer (`DetailedTaskSchema`), its input requests read only
 * as far as their `method`: the answering module checks each one's params as
 * it answers it, so this module shares no schema with it.
 */
const parseDetailed = resultParser(
  'tasks/get',
  v.looseObject({
    ...resultEntries,
    ...extensionTaskEntries,
    inputRequests: v.optional(
      v.record(v.string(), v.looseObject({ method: v.string(), params: v.optional(v.unknown()) })),
    ),
    result: v.optional(JsonObjectSchema),
    error: v.optional(JsonRpcErrorObjectSchema),
  }),
);

/**
 * The 2026-07-28 extension `io.modelcontextprotocol/tasks` (SEP-2663): the
 * client declares it in every request's capabilities (the Session does), and
 * the server decides per `tools/call` whether to answer `resultType: "task"`.
 * `tasks/get` carries everything — outstanding `inputRequests`, the `result`
 * of a completed task, the `error` of a failed one — and answers go back with
 * `tasks/update`. Over HTTP every task method names its task in `Mcp-Name`.
 */
export function modernWire(session: TaskSession): TaskWire {
  const send = (method: string, taskId: string, options: TaskCallOptions, extra?: Record<string, unknown>) =>
    session.request(method, undefined, { taskId, ...extra }, parseAny, {
      ...options,
      headers: { 'mcp-name': encodeHeaderValue(taskId) },
    } as TaskCallOptions);
  return {
    async start(call, _ttl, options) {
      // The era hands a task over raw (`resultType: "task"`), unparsed.
      const result = await session.request('tools/call', 'tools', call, parseCallTool, options);
      return 'taskId' in result ? parseCreated(result) : result;
    },
    created: parseCreated,
    async get(taskId, options) {
      const task = parseDetailed(await send('tasks/get', taskId, options));
      const { inputRequests, result, error } = task;
      return {
        task: reference(task),
        ...(inputRequests && { inputRequests }),
        outcome: () => {
          if (task.status === 'completed') {
            if (result) return parseCallTool(result);
            throw new ProtocolError(`tasks/get: task ${taskId} completed without a result`, { received: task });
          }
          if (task.status === 'failed' && error)
            throw new RpcError(error.code, error.message, error.data, 'tools/call');
          throw new McpError(
            `tools/call: task ${taskId} ${task.status}${task.statusMessage ? `: ${task.statusMessage}` : ''}`,
          );
        },
      };
    },
    async result(polled) {
      return polled.outcome?.() as never;
    },
    async update(taskId, inputResponses, options) {
      await send('tasks/update', taskId, options, { inputResponses });
    },
    async cancel(taskId, options) {
      await send('tasks/cancel', taskId, options);
    },
  };
}
