// Two tools of the agent's own, next to the server's: start an MCP tool as a
// task the server runs on after this invocation has answered, and, in any
// later invocation, report how the started tasks are doing and collect the
// results of those that ended. The task ids live in the Durable Object, so the
// model never has to carry them from one request to the next. A tool is named
// as the model sees it (the set's catalogue), and runs on the server that lists it.
import { ErrorCode, RpcError } from '@mcp/core';
import { jsonSchema, tool } from 'ai';
import { OPERATOR_SERVER } from './user-servers.js';

/** Background tasks one agent may have at a time; `background_start` refuses past it. */
export const MAX_TASKS = 10;

/** Terminal task states: reported once by `background_check`, then forgotten. */
const ENDED = new Set(['completed', 'failed', 'cancelled']);

/**
 * @param {import('@mcp/core/connections').Servers} servers the user's servers
 * @param {import('./durable-state.js').StoredTask[]} tasks the stored tasks, changed in place
 * @returns {import('ai').ToolSet}
 */
export function backgroundTools(servers, tasks) {
  return {
    background_start: tool({
      description:
        'Starts an MCP tool as a background task and returns its task id at once. Use it for long work; ' +
        'call background_check in a later turn to collect the result.',
      inputSchema: jsonSchema({
        type: 'object',
        properties: {
          tool: { type: 'string', description: 'the MCP tool to run, as named among your tools' },
          arguments: { type: 'object', description: "the tool's arguments" },
        },
        required: ['tool'],
        additionalProperties: false,
      }),
      async execute({ tool: name, arguments: args = {} }) {
        if (tasks.length >= MAX_TASKS) {
          throw new Error(`at most ${MAX_TASKS} background tasks at a time: collect some with background_check`);
        }
        const listed = servers.tools().find((entry) => entry.name === name);
        if (!listed) throw new Error(`no ready server lists a tool named ${JSON.stringify(name)}`);
        // Taken before the first await: tool calls of one step run concurrently.
        const slot = { taskId: '', server: listed.server, tool: name, startedAt: new Date().toISOString() };
        tasks.push(slot);
        let started;
        try {
          started = await clientOf(servers, listed.server).tasks.start(listed.tool.name, args);
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
          tasks.filter((task) => task.taskId !== '').map((task) => check(servers, task)),
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
 * longer knows it (its TTL passed: `-32602`, reported as failed) or is no longer
 * in the set. Any other error (the network, a 5xx, a timeout, a result that could
 * not be read, a server not ready) reports `status: "unknown"` with the error and
 * keeps the task for the next check.
 * @param {import('@mcp/core/connections').Servers} servers
 * @param {import('./durable-state.js').StoredTask} stored
 */
async function check(servers, { taskId, server = OPERATOR_SERVER, tool: name }) {
  if (!servers.get(server)) {
    return { taskId, tool: name, status: 'failed', error: `the server ${server} was removed`, forget: true };
  }
  let task;
  let client;
  try {
    client = clientOf(servers, server);
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
 * The live client of the server named `name`; a `ConnectionError` while it is not ready.
 * @param {import('@mcp/core/connections').Servers} servers
 * @param {string} name
 */
function clientOf(servers, name) {
  const connection = servers.get(name);
  if (!connection) throw new Error(`the server ${name} is no longer in the set`);
  return connection.client;
}

/**
 * The server's answer for a task id it does not know (never had, or its TTL
 * passed): `-32602` (2025-11-25 tasks, and 2026-07-28).
 * @param {unknown} error
 */
const isUnknownTask = (error) => error instanceof RpcError && error.code === ErrorCode.InvalidParams;

/** @param {unknown} error */
const messageOf = (error) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));
