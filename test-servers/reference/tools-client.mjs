import { z } from 'zod';
import { errorResult, messageOf, textResult } from './tool-results.mjs';

/** @typedef {import('./tool-context.mjs').ReferenceTool} ReferenceTool */
/** @typedef {import('./tool-context.mjs').ClientOutcome} ClientOutcome */

/** The form `elicit` asks for: one required string, `name`. */
export const ELICIT_SCHEMA = Object.freeze({
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
});

/**
 * `sample`: one `sampling/createMessage` round trip (2025-11-25, client/sampling).
 * A refusal (JSON-RPC error from the client) becomes an isError result.
 */
/** @type {ReferenceTool} */
export const sampleTool = {
  name: 'sample',
  title: 'Sample',
  description: 'Asks the client to sample an LLM with the prompt; returns the sampled text.',
  inputSchema: z.object({ prompt: z.string() }),
  run: async ({ prompt }, ctx) => {
    const outcome = await ctx.clientRequest('sampling', {
      method: 'sampling/createMessage',
      params: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 },
    });
    return finish(outcome, (result) => textResult(sampledText(result.content)));
  },
};

/** `elicit`: one form-mode `elicitation/create` round trip (2025-11-25, client/elicitation). */
/** @type {ReferenceTool} */
export const elicitTool = {
  name: 'elicit',
  title: 'Elicit',
  description: 'Asks the user (via the client) for a name; returns JSON of {action, content}.',
  inputSchema: z.object({ message: z.string().optional() }),
  run: async ({ message }, ctx) => {
    const outcome = await ctx.clientRequest('elicitation', {
      method: 'elicitation/create',
      params: { mode: 'form', message: message ?? 'What is your name?', requestedSchema: ELICIT_SCHEMA },
    });
    return finish(outcome, ({ action, content }) => textResult(JSON.stringify({ action, content })));
  },
};

/** `list-roots`: one `roots/list` round trip (2025-11-25, client/roots). */
/** @type {ReferenceTool} */
export const listRootsTool = {
  name: 'list-roots',
  title: 'List roots',
  description: 'Asks the client for its roots; returns JSON of the roots array.',
  inputSchema: z.object({}),
  run: async (_args, ctx) => {
    const outcome = await ctx.clientRequest('roots', { method: 'roots/list' });
    return finish(outcome, ({ roots }) => textResult(JSON.stringify(roots)));
  },
};

/**
 * The call's result for an outcome: `onResult` for the client's answer, an
 * isError result for its refusal, or the adapter's suspension as it is.
 * @param {ClientOutcome} outcome
 * @param {(result: any) => import('./tool-context.mjs').CallToolResult} onResult
 * @returns {any}
 */
function finish(outcome, onResult) {
  if ('suspend' in outcome) return outcome.suspend;
  if ('error' in outcome) return errorResult(messageOf(outcome.error));
  return onResult(outcome.result);
}

/**
 * The text of a sampling result: one content block, or (2025-11-25) an array
 * of them, of which the text parts are joined.
 * @param {unknown} content
 * @returns {string}
 */
function sampledText(content) {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .filter((block) => block?.type === 'text')
    .map((block) => block.text)
    .join('');
}
