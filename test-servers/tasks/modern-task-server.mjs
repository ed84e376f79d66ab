import {
  inputRequired,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  Server,
} from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { errorResult } from '../reference/tool-results.mjs';
import { createModernTaskStore } from './modern-task-store.mjs';
import { MODERN_TASK_TOOLS, startTask } from './modern-task-tools.mjs';

/** The extension's identifier (SEP-2663 § Extension Identifier). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Who the 2026-07-28 task server says it is. */
export const MODERN_TASK_SERVER_INFO = Object.freeze({ name: 'mcp-task-server-2026', version: '1.0.0' });

/** The reserved `_meta` key of a request's client capabilities (2026-07-28, basic/lifecycle). */
const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';

const TASK_ID_PARAMS = z.object({ taskId: z.string() }).passthrough();

/**
 * The v2 SDK's `Server`, except that a `tools/call` answered with a
 * CreateTaskResult goes out as the handler made it. The SDK passes any
 * `resultType` of `tools/call` through, but first completes a result with no
 * `content` as a CallToolResult (`content: []`), which a CreateTaskResult is not.
 */
class TaskServer extends Server {
  /**
   * @param {string} method
   * @param {(request: any, ctx: any) => Promise<any>} handler
   */
  _wrapHandler(method, handler) {
    if (method !== 'tools/call') return super._wrapHandler(method, handler);
    /** @type {WeakMap<object, Record<string, unknown>>} */
    const created = new WeakMap();
    const wrapped = super._wrapHandler(method, async (request, ctx) => {
      const result = await handler(request, ctx);
      if (result?.resultType !== 'task') return result;
      created.set(ctx, result);
      return { content: [] };
    });
    return async (/** @type {any} */ request, /** @type {any} */ ctx) => {
      const result = await wrapped(request, ctx);
      return created.get(ctx) ?? result;
    };
  }
}

/**
 * The 2026-07-28 task server: the `io.modelcontextprotocol/tasks` extension
 * (SEP-2663) on the v2 SDK's low-level `Server`. `tools/call` of a task tool
 * answers `resultType: "task"` when the request declared the extension in its
 * `clientCapabilities.extensions` (and `-32021` naming it when the tool cannot
 * run without a task); `tasks/get`, `tasks/update` and `tasks/cancel` serve the
 * store. The SDK's HTTP entry checks `Mcp-Name` against `params.taskId` on the
 * three task methods. A 2025 `initialize` connection gets the same tools, the
 * task-only ones answering an `isError` result (the extension needs 2026-07-28).
 * @param {{ era?: 'modern' | 'legacy', store?: import('./modern-task-store.mjs').ModernTaskStore }} [context]
 *   the era the SDK entry picked; the store the server's requests share (one per stdio process or HTTP URL)
 * @returns {Server}
 */
export function createModernTaskServer({ era = 'modern', store = createModernTaskStore() } = {}) {
  const server = new TaskServer(
    { ...MODERN_TASK_SERVER_INFO },
    { capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } } },
  );
  const tools = new Map(MODERN_TASK_TOOLS.map((tool) => [tool.name, tool]));

  server.setRequestHandler('tools/list', async () => ({
    tools: MODERN_TASK_TOOLS.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: z.toJSONSchema(tool.inputSchema, { io: 'input' }),
    })),
  }));

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const tool = tools.get(request.params.name);
    if (tool === undefined)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const parsed = tool.inputSchema.safeParse(request.params.arguments ?? {});
    if (!parsed.success) return errorResult(`Invalid arguments for tool ${tool.name}: ${parsed.error.message}`);
    const declared = era === 'modern' && declaresTasks(ctx);
    if (tool.task === 'never' || (tool.task === 'optional' && !declared)) {
      return /** @type {any} */ (await /** @type {NonNullable<typeof tool.inline>} */ (tool.inline)(parsed.data));
    }
    if (era !== 'modern')
      return errorResult(`${tool.name} needs the ${TASKS_EXTENSION} extension (protocol revision 2026-07-28)`);
    if (!declared) throw missingTasksExtension();
    // SEP-2663 § Task Creation: multi-round-trip exchanges before the task are
    // resolved on tools/call itself, before any CreateTaskResult.
    const gate = tool.gate?.(parsed.data, ctx.mcpReq.inputResponses ?? {});
    if (gate !== undefined && 'elicit' in gate) {
      const entries = Object.entries(gate.elicit).map(([key, params]) => [
        key,
        inputRequired.elicit(/** @type {any} */ (params)),
      ]);
      return inputRequired({ inputRequests: Object.fromEntries(entries) });
    }
    if (gate !== undefined && 'answer' in gate) return /** @type {any} */ (gate.answer);
    const missing = missingCapabilities(ctx, tool.needs);
    if (missing !== undefined) {
      throw new MissingRequiredClientCapabilityError(
        { requiredCapabilities: missing },
        `${tool.name} needs ${Object.keys(missing).join(', ')}`,
      );
    }
    const task = startTask(store, tool, parsed.data);
    return /** @type {any} */ ({ resultType: 'task', ...store.summary(task) });
  });

  if (era !== 'modern') return server;

  /** @param {any} ctx @param {string} taskId */
  const taskFor = (ctx, taskId) => {
    if (!declaresTasks(ctx)) throw missingTasksExtension();
    const found = store.get(taskId);
    if ('task' in found) return found.task;
    const why = found.missing === 'expired' ? 'Task has expired' : 'Task not found';
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Failed to retrieve task: ${why}`);
  };

  server.setRequestHandler('tasks/get', { params: TASK_ID_PARAMS }, async (params, ctx) =>
    store.detailed(taskFor(ctx, params.taskId)),
  );
  // The SDK lifts `inputResponses` off every request (multi-round-trip material)
  // and hands it over as ctx.mcpReq.inputResponses, so it is read there.
  server.setRequestHandler('tasks/update', { params: TASK_ID_PARAMS }, async (params, ctx) => {
    const task = taskFor(ctx, params.taskId);
    const responses = /** @type {any} */ (ctx).mcpReq.inputResponses;
    if (responses === undefined || typeof responses !== 'object') {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'tasks/update needs inputResponses');
    }
    store.answer(task, responses);
    return {};
  });
  server.setRequestHandler('tasks/cancel', { params: TASK_ID_PARAMS }, async (params, ctx) => {
    store.cancel(taskFor(ctx, params.taskId));
    return {};
  });
  return server;
}

/**
 * Serves the 2026-07-28 task server on this process's stdio, one task store
 * for the process (the SDK picks the era from the opening message).
 */
export function serveModernTaskStdio() {
  const store = createModernTaskStore();
  return serveStdio(({ era }) => createModernTaskServer({ era, store }), {
    transport: new StdioServerTransport(),
    onerror: (error) => process.stderr.write(`task server (2026-07-28): ${error.message}\n`),
  });
}

/**
 * The request's declared client capabilities (the per-request `_meta`).
 * @param {any} ctx
 * @returns {Record<string, any>}
 */
function clientCapabilities(ctx) {
  return ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_KEY] ?? {};
}

/**
 * Whether this request declared the tasks extension: the only handshake there
 * is (SEP-2663 § Capability Negotiation); what earlier requests said counts for nothing.
 * @param {any} ctx
 */
function declaresTasks(ctx) {
  return clientCapabilities(ctx).extensions?.[TASKS_EXTENSION] !== undefined;
}

/** The `-32021` SEP-2663 asks for when a client without the extension needs it. */
function missingTasksExtension() {
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    `Missing required client capability: ${TASKS_EXTENSION}`,
  );
}

/**
 * The capabilities of `needs` this request did not declare, or undefined.
 * @param {any} ctx
 * @param {Record<string, object> | undefined} needs
 */
function missingCapabilities(ctx, needs = {}) {
  const declared = clientCapabilities(ctx);
  const missing = Object.fromEntries(Object.entries(needs).filter(([name]) => declared[name] === undefined));
  return Object.keys(missing).length > 0 ? missing : undefined;
}
