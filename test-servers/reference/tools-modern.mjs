import { z } from 'zod';
import { errorResult, textResult } from './tool-results.mjs';
import { headerEchoTool, invalidHeaderTools } from './tools-headers.mjs';
import { mrtrMultiTool, mrtrRoundsTool, mrtrStateOnlyTool } from './tools-mrtr.mjs';

/** @typedef {import('./tool-context.mjs').ReferenceTool} ReferenceTool */

/**
 * `request-counts`: JSON of how many messages of each method this server
 * received (the call itself included), so a test can prove that a cached
 * result never reached the server.
 * @type {ReferenceTool}
 */
export const requestCountsTool = {
  name: 'request-counts',
  title: 'Request counts',
  description: 'Returns JSON {method: count} of every message this server received, this call included.',
  inputSchema: z.object({}),
  annotations: { readOnlyHint: true },
  run: async (_args, ctx) => {
    if (ctx.requestCounts === undefined) return errorResult('request-counts needs protocol revision 2026-07-28');
    return textResult(JSON.stringify(ctx.requestCounts()));
  },
};

/**
 * The tools only the v2 server lists, and only on 2026-07-28, after the eleven
 * shared ones: the 2025 era keeps the documented list of eleven.
 * @type {readonly ReferenceTool[]}
 */
export const modernTools = Object.freeze([
  mrtrMultiTool,
  mrtrRoundsTool,
  mrtrStateOnlyTool,
  headerEchoTool,
  ...invalidHeaderTools,
  requestCountsTool,
]);
