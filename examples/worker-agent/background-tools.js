// Two tools of the agent's own, next to the server's: start an MCP tool as a
// task the server runs on after this invocation has answered, and, in any
// later invocation, report how the started tasks are doing and collect the
// results of those that ended. The task ids live in the Durable Object, so the
// model never has to carry them from one request to the next.
import { ErrorCode, RpcError } from '@mcp/core';
import { jsonSchema, tool } from 'ai';

/** Background tasks one agent may have at a time; `background_start` refuses past it. */
export const MAX_TASKS = 10;

/** Terminal task states: reported once by `background_check`, then forgotten. */
const ENDED = new Set(['completed', 'failed', 'cancelled']);

/**
 * @param {import('@mcp/core').Client} client
 * @param {import('./durable-state.js').StoredTask[]} tasks the stored tasks, changed in place
 * @returns {import('ai').ToolSet}
 */
export function backgroundTools(client, tasks) {
  return {
    background_start: tool({
      description:
        'Starts an MCP tool as a background task and returns its task id at once. Use it for long work; ' +
        'call background_check in a later turn to collect the result.',
      inputSchema: jsonSchema({
        type: 'object',
        properties: {
          tool: { type: 'string', description: 'the MCP tool to run' },
          arguments: { type: 'object', description: "the tool's arguments" },
        },
        required: ['tool'],
        additionalProperties: false,
      }),
      async execute({ tool: name, arguments: args = {} }) {
        if (tasks.length >= MAX_TASKS) {
          throw new Error(`at most ${MAX_TASKS} background tasks at a time: collect some with background_check`);
        }
        // Taken before the first await: tool calls of one step run concurrently.
        const slot = { taskId: '', tool: name, startedAt: new Date().toISOString() };
        tasks.push(slot);
        let started;
        try {
          started = await client.tasks.start(name, args);
        } finally {
          // Only if still held: the slot is the only thing this call may remove.
          const held = tasks.indexOf(slot);
          if ((!started || !('taskId' in started)) && held !== -1) tasks.splice(held, 1);
        }
        // The server ran the tool inline: its result is all there is.
        if (!('taskId' in started)) return { status: 'completed', text: started.text, isError: started.isError };
        slot.taskId = started.taskId;
        return { taskId: started.taskId, status: started.status };
      },
    }),
    background_check: tool({
      description:
        'Reports every background task started earlier: the status of those still working, and the result ' +
        'of those that ended (reported once, then forgotten).',
      inputSchema: jsonSchema({ type: 'object', properties: {}, additionalProperties: false }),
      async execute() {
        // A slot whose background_start (in this same step) has no task id yet is not checked: the
        // next background_check reports it.
        const reports = await Promise.all(
          tasks.filter((task) => task.taskId !== '').map((task) => check(client, task)),
        );
        const gone = new Set(reports.filter((report) => report.forget).map((report) => report.taskId));
        const kept = tasks.filter((task) => !gone.has(task.taskId));
        tasks.splice(0, tasks.length, ...kept);
        return { tasks: reports.map(({ forget, ...report }) => report) };
      },
    }),
  };
}

/**
 * Where one task stands, with its result once it has ended, and whether to
 * forget it: once it has ended and its result was read, or once the server no
 * longer knows it (its TTL passed: `-32602`, reported as failed). Any other
 * error (the network, a 5xx, a timeout, a result that could not be read)
 * reports `status: "unknown"` with the error and keeps the task for the next check.
 * @param {import('@mcp/core').Client} client
 * @param {import('./durable-state.js').StoredTask} stored
 */
async function check(client, { taskId, tool: name }) {
  let task;
  try {
    task = await client.tasks.get(taskId);
  } catch (error) {
    if (isUnknownTask(error)) return { taskId, tool: name, status: 'failed', error: messageOf(error), forget: true };
    return { taskId, tool: name, status: 'unknown', error: messageOf(error), forget: false };
  }
  const report = { taskId, tool: name, status: task.status, statusMessage: task.statusMessage };
  if (!ENDED.has(task.status)) return { ...report, forget: false };
  if (task.status === 'cancelled') return { ...report, forget: true };
  try {
    // The task has ended, so result() answers at once rather than waiting.
    const result = await client.tasks.result(taskId);
    return { ...report, text: result.text, isError: result.isError, forget: true };
  } catch (error) {
    if (isUnknownTask(error)) return { ...report, error: messageOf(error), forget: true };
    return { ...report, status: 'unknown', error: messageOf(error), forget: false };
  }
}

/**
 * The server's answer for a task id it does not know (never had, or its TTL
 * passed): `-32602` (2025-11-25 tasks, and 2026-07-28).
 * @param {unknown} error
 */
const isUnknownTask = (error) => error instanceof RpcError && error.code === ErrorCode.InvalidParams;

/** @param {unknown} error */
const messageOf = (error) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));
