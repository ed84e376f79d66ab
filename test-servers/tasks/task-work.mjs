/** What both task servers' tools share: their step arguments, the question they ask, and a pause. */
import { z } from 'zod';

/**
 * The arguments of the stepped tools: how many steps, and how long each takes.
 * Short defaults so tests finish quickly; bounded so a typo cannot hang one.
 */
export const STEP_ARGS = Object.freeze({
  steps: z.number().int().min(1).max(20).default(3),
  stepMs: z.number().int().min(0).max(5_000).default(20),
});

/** The form the mid-task question asks for: one required string, `answer`. */
export const ANSWER_SCHEMA = Object.freeze({
  type: 'object',
  properties: { answer: { type: 'string' } },
  required: ['answer'],
});

/**
 * The status message of step `step` of `steps`.
 * @param {number} step
 * @param {number} steps
 */
export function stepMessage(step, steps) {
  return `step ${step} of ${steps}`;
}

/**
 * An elicitation answer as text: the accepted `answer`, else `(<action>)`.
 * @param {any} result an ElicitResult
 * @returns {string}
 */
export function answerText(result) {
  const answer = result?.content?.answer;
  return result?.action === 'accept' && typeof answer === 'string' ? answer : `(${String(result?.action)})`;
}

/**
 * Resolves after `ms`.
 * @param {number} ms
 * @returns {Promise<void>}
 */
export function pause(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
