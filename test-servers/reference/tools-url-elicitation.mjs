import { z } from 'zod';
import { rpcError } from './rpc-errors.mjs';
import { textResult } from './tool-results.mjs';

/** @typedef {import('./tool-context.mjs').ReferenceTool} ReferenceTool */

/** MCP "URL elicitation required" (2025-11-25 only, client/elicitation § URL Elicitation Required Error). */
export const URL_ELICITATION_REQUIRED = -32042;

/** How many times each `key` was called, across the process: a retry must find its first call's count. */
const calls = new Map();

/**
 * `url-required`: refuses its first `refusals` calls per `key` (every call when
 * absent) with -32042, `data.elicitations` being its `elicitations` argument as
 * given, so a test can send well-formed, unsafe or malformed ones; later calls
 * answer `calls: <n>`. `peek: true` answers the count without counting or refusing.
 * @type {ReferenceTool}
 */
export const urlRequiredTool = {
  name: 'url-required',
  title: 'URL elicitation required',
  description:
    'Fails with -32042 (data.elicitations = its elicitations argument) for the first `refusals` calls per key.',
  inputSchema: z.object({
    key: z.string(),
    elicitations: z.unknown().optional(),
    refusals: z.number().int().min(0).optional(),
    peek: z.boolean().optional(),
  }),
  run: async ({ key, elicitations, refusals, peek }) => {
    const count = (calls.get(key) ?? 0) + (peek ? 0 : 1);
    calls.set(key, count);
    if (!peek && (refusals === undefined || count <= refusals)) {
      throw rpcError(URL_ELICITATION_REQUIRED, 'This request requires more information.', { elicitations });
    }
    return textResult(`calls: ${count}`);
  },
};

/**
 * `complete-url-elicitation`: tells the client that the URL flow of
 * `elicitationId` has ended (`notifications/elicitation/complete`, 2025-11-25),
 * as a server does once the user finished at the URL; answers `calls: <n>` of
 * `key` when given, so a test sees whether the refused call was retried yet.
 * @type {ReferenceTool}
 */
export const completeUrlElicitationTool = {
  name: 'complete-url-elicitation',
  title: 'Complete a URL elicitation',
  description: 'Sends notifications/elicitation/complete for elicitationId.',
  inputSchema: z.object({ elicitationId: z.string(), key: z.string().optional() }),
  run: async ({ elicitationId, key }, context) => {
    if (!context.elicitationComplete) throw new Error('this server cannot send notifications/elicitation/complete');
    await context.elicitationComplete(elicitationId);
    return textResult(`calls: ${key === undefined ? 0 : (calls.get(key) ?? 0)}`);
  },
};
