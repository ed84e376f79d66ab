import * as v from 'valibot';
import { JsonObjectSchema } from './json.js';
import { JsonRpcErrorObjectSchema } from './jsonrpc.js';
import { InputRequestsSchema, InputResponsesSchema } from './mrtr.js';
import { paginatedEntries, resultEntries } from './result.js';

/** The extension identifier of 2026-07-28 Tasks (SEP-2663), declared under `extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Task lifecycle states; `completed`, `failed` and `cancelled` are terminal. */
export const TaskStatusSchema = v.picklist(['working', 'input_required', 'completed', 'failed', 'cancelled']);
/** The output type of {@link TaskStatusSchema}: a value it parsed. */
export type TaskStatus = v.InferOutput<typeof TaskStatusSchema>;

/**
 * A TTL in ms, `null` for no limit. A `custom` check rather than
 * `nullable(number())`: valibot is one module, so a schema function only the
 * on-demand tasks module used would still load with every program.
 */
const TtlSchema = v.custom<number | null>(
  (value) => value === null || typeof value === 'number',
  'Invalid type: Expected number or null',
);

const taskStateEntries = {
  taskId: v.string(),
  status: TaskStatusSchema,
  statusMessage: v.optional(v.string()),
  createdAt: v.string(),
  lastUpdatedAt: v.string(),
};

/** 2025-11-25 (experimental) task state. `ttl` is ms to keep results, `null` = unlimited. */
const taskEntries = {
  ...taskStateEntries,
  ttl: TtlSchema,
  pollInterval: v.optional(v.number()),
};
/** A 2025-11-25 (experimental) task: its state, `ttl` (ms to keep results, `null` = unlimited) and `pollInterval`. */
export const TaskSchema = v.looseObject({ ...taskEntries });
/** The output type of {@link TaskSchema}: a value it parsed. */
export type Task = v.InferOutput<typeof TaskSchema>;

/** 2025-11-25: the answer to a task-augmented request. */
export const CreateTaskResultSchema = v.looseObject({ ...resultEntries, task: TaskSchema });
/** The output type of {@link CreateTaskResultSchema}: a value it parsed. */
export type CreateTaskResult = v.InferOutput<typeof CreateTaskResultSchema>;

/** 2025-11-25: `tasks/get` and `tasks/cancel` results are the task itself. */
export const GetTaskResultSchema = v.looseObject({ ...resultEntries, ...taskEntries });
/** The output type of {@link GetTaskResultSchema}: a value it parsed. */
export type GetTaskResult = v.InferOutput<typeof GetTaskResultSchema>;

/** 2025-11-25: one page of `tasks/list`. */
export const ListTasksResultSchema = v.looseObject({
  ...resultEntries,
  ...paginatedEntries,
  tasks: v.array(TaskSchema),
});
/** The output type of {@link ListTasksResultSchema}: a value it parsed. */
export type ListTasksResult = v.InferOutput<typeof ListTasksResultSchema>;

/** Params of `tasks/get`, `tasks/result`, `tasks/cancel` (both eras). */
export const TaskIdParamsSchema = v.looseObject({ taskId: v.string(), _meta: v.optional(JsonObjectSchema) });
/** The output type of {@link TaskIdParamsSchema}: a value it parsed. */
export type TaskIdParams = v.InferOutput<typeof TaskIdParamsSchema>;

/** The fields of a 2026-07-28 task (building block: spread into fresh literals only, see `resultEntries`). */
export const extensionTaskEntries = {
  ...taskStateEntries,
  ttlMs: TtlSchema,
  pollIntervalMs: v.optional(v.number()),
};

/** 2026-07-28 Tasks extension: `tools/call` answered with a task (`resultType: "task"`, flat fields). */
export const CreateTaskExtensionResultSchema = v.looseObject({
  ...resultEntries,
  resultType: v.literal('task'),
  ...extensionTaskEntries,
});
/** The output type of {@link CreateTaskExtensionResultSchema}: a value it parsed. */
export type CreateTaskExtensionResult = v.InferOutput<typeof CreateTaskExtensionResultSchema>;

/**
 * 2026-07-28 Tasks extension `tasks/get` result: the task plus what its status
 * carries (`inputRequests` when `input_required`, `result` when `completed`,
 * `error` when `failed`).
 */
export const DetailedTaskSchema = v.looseObject({
  ...resultEntries,
  ...extensionTaskEntries,
  inputRequests: v.optional(InputRequestsSchema),
  result: v.optional(JsonObjectSchema),
  error: v.optional(JsonRpcErrorObjectSchema),
});
/** The output type of {@link DetailedTaskSchema}: a value it parsed. */
export type DetailedTask = v.InferOutput<typeof DetailedTaskSchema>;

/** 2026-07-28 Tasks extension `tasks/update` params: answers to a task's `inputRequests`. */
export const UpdateTaskRequestParamsSchema = v.looseObject({
  taskId: v.string(),
  inputResponses: InputResponsesSchema,
  _meta: v.optional(JsonObjectSchema),
});
/** The output type of {@link UpdateTaskRequestParamsSchema}: a value it parsed. */
export type UpdateTaskRequestParams = v.InferOutput<typeof UpdateTaskRequestParamsSchema>;

/**
 * A task as the client reports it, whatever revision the server speaks: plain
 * and serialisable, so an app can store `taskId` (a Worker in a Durable
 * Object, say) and collect the result from a later process with
 * `client.tasks.result(taskId)`. Times are in ms in both revisions.
 */
export interface TaskReference {
  readonly taskId: string;
  /** `working`, `input_required`, or a terminal `completed`, `failed`, `cancelled`. */
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  /** How long the server keeps the task from its creation, in ms; `null` means no limit. */
  readonly ttl?: number | null;
  /** How often the server suggests polling, in ms. */
  readonly pollInterval?: number;
}

/** Whether a task has ended: `completed`, `failed` or `cancelled` (both revisions). */
export function isTerminalStatus(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}
