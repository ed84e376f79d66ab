import { z } from 'zod';
import { errorResult, textResult } from './tool-results.mjs';
import { ELICIT_SCHEMA } from './tools-client.mjs';

/** @typedef {import('./tool-context.mjs').ReferenceTool} ReferenceTool */
/** @typedef {import('./tool-context.mjs').ClientRequest} ClientRequest */
/** @typedef {import('./tool-context.mjs').MrtrPort} MrtrPort */

/**
 * The three inputs `mrtr-multi` asks for in one round, by key: keys that differ
 * from the method names, so a client must answer by key, not by kind.
 * @type {Record<string, ClientRequest>}
 */
export const MULTI_INPUT_REQUESTS = Object.freeze({
  'user-name': {
    method: 'elicitation/create',
    params: { mode: 'form', message: 'What is your name?', requestedSchema: ELICIT_SCHEMA },
  },
  'workspace-roots': { method: 'roots/list' },
  summary: {
    method: 'sampling/createMessage',
    params: { messages: [{ role: 'user', content: { type: 'text', text: 'Summarise the workspace' } }], maxTokens: 50 },
  },
});

/** The form each `mrtr-rounds` round asks for: one required string, `answer`. */
export const ROUND_SCHEMA = Object.freeze({
  type: 'object',
  properties: { answer: { type: 'string' } },
  required: ['answer'],
});

const ALTERED = 'requestState was altered, expired, or belongs to another call';

/**
 * `mrtr-multi`: one round asking for an elicitation, the roots and a sample at
 * once (2026-07-28, basic/patterns/mrtr: several inputRequests in one result).
 * A retry missing some answers is asked again for those only, the answers it
 * did bring kept in a sealed requestState. The result is JSON of every answer.
 * @type {ReferenceTool}
 */
export const mrtrMultiTool = {
  name: 'mrtr-multi',
  title: 'MRTR: several inputs',
  description: 'Asks for an elicitation (user-name), roots (workspace-roots) and a sample (summary) in one round.',
  inputSchema: z.object({}),
  run: async (_args, ctx) => {
    const port = ctx.mrtr;
    if (port === undefined) return errorResult('mrtr-multi needs protocol revision 2026-07-28');
    let kept = {};
    if (port.requestState !== undefined) {
      const payload = await port.states.open(port.requestState);
      if (payload?.tool !== 'mrtr-multi') return errorResult(ALTERED);
      kept = payload.answers;
    }
    /** @type {Record<string, unknown>} */
    const answers = { ...kept };
    for (const key of Object.keys(MULTI_INPUT_REQUESTS)) {
      if (port.responses[key] !== undefined) answers[key] = port.responses[key];
    }
    const missing = Object.keys(MULTI_INPUT_REQUESTS).filter((key) => answers[key] === undefined);
    if (missing.length === 0) return textResult(JSON.stringify(answers));
    const inputRequests = Object.fromEntries(missing.map((key) => [key, MULTI_INPUT_REQUESTS[key]]));
    if (Object.keys(answers).length === 0) return port.suspend({ inputRequests });
    return port.suspend({ inputRequests, requestState: await port.states.seal({ tool: 'mrtr-multi', answers }) });
  },
};

/**
 * `mrtr-rounds`: one elicitation per round for `rounds` rounds, the answers so
 * far carried only in the sealed requestState, so the final list proves every
 * state came back byte for byte; an altered state ends the call with isError.
 * @type {ReferenceTool}
 */
export const mrtrRoundsTool = {
  name: 'mrtr-rounds',
  title: 'MRTR: several rounds',
  description: 'Asks for one answer per round (key "answer"), carrying progress in requestState; returns the answers.',
  inputSchema: z.object({ rounds: z.number().int().min(1).max(10).default(2) }),
  run: async ({ rounds }, ctx) => {
    const port = ctx.mrtr;
    if (port === undefined) return errorResult('mrtr-rounds needs protocol revision 2026-07-28');
    /** @type {string[]} */
    let answers = [];
    if (port.requestState !== undefined) {
      const payload = await port.states.open(port.requestState);
      if (payload?.tool !== 'mrtr-rounds' || payload.rounds !== rounds) return errorResult(ALTERED);
      answers = payload.answers;
      const answer = port.responses.answer;
      if (answer !== undefined) answers = [...answers, answerText(answer)];
    }
    if (answers.length >= rounds) return textResult(JSON.stringify(answers));
    const round = answers.length + 1;
    return port.suspend({
      inputRequests: {
        answer: {
          method: 'elicitation/create',
          params: { mode: 'form', message: `Answer ${round} of ${rounds}`, requestedSchema: ROUND_SCHEMA },
        },
      },
      requestState: await port.states.seal({ tool: 'mrtr-rounds', rounds, answers }),
    });
  },
};

/**
 * `mrtr-state-only`: the load-shedding form (2026-07-28, basic/patterns/mrtr):
 * the first answer is input_required with a requestState and no inputRequests;
 * the retry that echoes it completes.
 * @type {ReferenceTool}
 */
export const mrtrStateOnlyTool = {
  name: 'mrtr-state-only',
  title: 'MRTR: state only',
  description: 'First returns input_required with only a requestState; the retry carrying it completes.',
  inputSchema: z.object({}),
  run: async (_args, ctx) => {
    const port = ctx.mrtr;
    if (port === undefined) return errorResult('mrtr-state-only needs protocol revision 2026-07-28');
    if (port.requestState === undefined) {
      return port.suspend({ requestState: await port.states.seal({ tool: 'mrtr-state-only' }) });
    }
    const payload = await port.states.open(port.requestState);
    if (payload?.tool !== 'mrtr-state-only') return errorResult(ALTERED);
    return textResult('completed after a state-only round');
  },
};

/**
 * One round's answer as text: the accepted `answer`, else `(<action>)`.
 * @param {any} result an ElicitResult
 * @returns {string}
 */
function answerText(result) {
  const answer = result?.content?.answer;
  return result?.action === 'accept' && typeof answer === 'string' ? answer : `(${String(result?.action)})`;
}
