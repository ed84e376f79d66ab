import { z } from 'zod';
import { LOG_LEVELS } from './log-levels.mjs';
import { textResult } from './tool-results.mjs';

/** @typedef {import('./tool-context.mjs').ReferenceTool} ReferenceTool */

/** `log`: one `notifications/message` at the given level, subject to `logging/setLevel`. */
/** @type {ReferenceTool} */
export const logTool = {
  name: 'log',
  title: 'Log',
  description: 'Sends a log message notification at the given level.',
  inputSchema: z.object({ level: z.enum(LOG_LEVELS), message: z.string() }),
  run: async ({ level, message }, ctx) => {
    await ctx.log(String(level), message);
    return textResult('logged');
  },
};

/** `touch-resource`: `notifications/resources/updated` for a URI the client subscribed to. */
/** @type {ReferenceTool} */
export const touchResourceTool = {
  name: 'touch-resource',
  title: 'Touch resource',
  description: 'Marks a resource as updated, notifying the client if it subscribed to the URI.',
  inputSchema: z.object({ uri: z.string() }),
  run: async ({ uri }, ctx) => {
    await ctx.resourceUpdated(String(uri));
    return textResult('touched');
  },
};

/** `add-tool`: grows the tool list at runtime, so the server sends `notifications/tools/list_changed`. */
/** @type {ReferenceTool} */
export const addToolTool = {
  name: 'add-tool',
  title: 'Add tool',
  description: 'Registers a new tool (dynamic-1, dynamic-2, …) on this connection.',
  inputSchema: z.object({}),
  run: async (_args, ctx) => {
    await ctx.addTool(dynamicTool);
    return textResult('added');
  },
};

/**
 * The n-th runtime tool: `dynamic-<n>`, no arguments, returns "dynamic <n>".
 * @param {number} n
 * @returns {ReferenceTool}
 */
function dynamicTool(n) {
  return {
    name: `dynamic-${n}`,
    title: `Dynamic ${n}`,
    description: `Added at runtime by add-tool call ${n}.`,
    inputSchema: z.object({}),
    run: async () => textResult(`dynamic ${n}`),
  };
}
