import { McpError } from '../../errors/mcp-error.js';
import { CreateTaskResultSchema, GetTaskResultSchema, type Task, type TaskReference } from '../../protocol/tasks.js';
import { parseAny, parseCallTool, resultParser } from '../results/decode.js';
import type { TaskSession, TaskWire } from './task-wire.js';

/** The fields of a 2025-11-25 task as the client reports them. */
function reference({
  taskId,
  status,
  statusMessage,
  createdAt,
  lastUpdatedAt,
  ttl,
  pollInterval,
}: Task): TaskReference {
  return {
    taskId,
    status,
    ...(statusMessage !== undefined && { statusMessage }),
    createdAt,
    lastUpdatedAt,
    ttl,
    ...(pollInterval !== undefined && { pollInterval }),
  };
}

const parseCreated = resultParser('tools/call', CreateTaskResultSchema, (result) => reference(result.task));
const parseTask = resultParser('tasks/get', GetTaskResultSchema, reference);

/**
 * 2025-11-25 core tasks (experimental), the client as requestor: a
 * `tools/call` augmented with `task: {ttl}` is answered with `{task}`;
 * `tasks/get` polls; `tasks/result` blocks until the task ends and answers
 * exactly what `tools/call` would have. A task that needs input says
 * `input_required`: `tasks/result` at once then, on whose stream the server
 * sends its requests (tagged `related-task`), which the Session answers with
 * the client's handlers like any other.
 */
export function legacyWire(session: TaskSession): TaskWire {
  const send = <T>(method: string, taskId: string, parse: (raw: unknown) => T, options: object) =>
    session.request(method, undefined, { taskId }, parse, options);
  return {
    start(call, ttl, options) {
      return session.request(
        'tools/call',
        'tools',
        { ...call, task: ttl === undefined ? {} : { ttl } },
        (raw) => ('task' in (raw as object) ? parseCreated(raw) : parseCallTool(raw)),
        options,
      );
    },
    created: parseCreated,
    async get(taskId, options) {
      return { task: await send('tasks/get', taskId, parseTask, options) };
    },
    result({ task }, options) {
      if (task.status === 'cancelled') {
        return Promise.reject(new McpError(`tools/call: task ${task.taskId} cancelled`));
      }
      return send('tasks/result', task.taskId, parseCallTool, options);
    },
    async cancel(taskId, options) {
      await send('tasks/cancel', taskId, parseAny, options);
    },
  };
}
