import { z } from 'zod';
import { errorResult, messageOf, textResult } from '../reference/tool-results.mjs';
import { ANSWER_SCHEMA, answerText, pause, STEP_ARGS, stepMessage } from './task-work.mjs';

/**
 * What a task's work may do to its task.
 * @typedef {object} TaskWork
 * @property {(message: string) => boolean} progress sets the status message; false once the task is terminal (stop then)
 * @property {(ms: number) => void} suggestPollInterval changes the task's `pollIntervalMs` (SEP-2663: it may change)
 * @property {(key: string, request: import('./modern-task-store.mjs').InputRequest, message?: string) => Promise<unknown>} ask
 *   waits for the client's answer to one input request (status `input_required` meanwhile)
 * @property {(error: { code: number, message: string, data?: unknown }) => void} fail ends the task with a JSON-RPC error
 */

/**
 * One tool of the 2026-07-28 task server. `task`: `required` tools always
 * answer with a task (so `-32021` to a client without the extension),
 * `optional` ones with a task when the client declared the extension and
 * inline otherwise, `never` ones inline. `needs`: client capabilities its
 * input requests need, checked when the call comes in.
 * @typedef {object} ModernTaskTool
 * @property {string} name
 * @property {string} description
 * @property {z.ZodObject<any>} inputSchema
 * @property {'required' | 'optional' | 'never'} task
 * @property {Record<string, object>} [needs]
 * @property {(args: any) => number | undefined} [ttlMs] the task's TTL from the arguments
 * @property {(args: any, work: TaskWork) => Promise<Record<string, unknown> | undefined>} [run]
 *   the task's work; resolves to the result to complete with (undefined: the work ended the task itself)
 * @property {(args: any) => Promise<Record<string, unknown>>} [inline] the answer without a task
 * @property {(args: any, inputResponses: Record<string, any>) => Gate} [gate] a multi-round-trip step
 *   before the task: what to ask first, or an answer that ends the call without one
 */

/**
 * What a tool's gate decided: ask these elicitations first, by key (their
 * `elicitation/create` params; an InputRequiredResult), answer at once, or go
 * on and create the task.
 * @typedef {{ elicit: Record<string, Record<string, unknown>> }
 *   | { answer: Record<string, unknown> } | { proceed: true }} Gate
 */

/** The form `confirm-then-task` asks before it starts: one required boolean, `confirm`. */
export const CONFIRM_SCHEMA = Object.freeze({
  type: 'object',
  properties: { confirm: { type: 'boolean' } },
  required: ['confirm'],
});

/** @type {readonly ModernTaskTool[]} */
export const MODERN_TASK_TOOLS = Object.freeze([
  {
    name: 'slow-steps',
    description:
      'Works through `steps` steps of `stepMs` each, statusMessage "step i of n"; completes with "done after n steps". Always a task; `ttlMs` sets its TTL; `pollIntervalMs` replaces the suggested interval from step 2 on (SEP-2663 lets it change).',
    inputSchema: z.object({
      ...STEP_ARGS,
      ttlMs: z.number().int().min(1).max(3_600_000).optional(),
      pollIntervalMs: z.number().int().min(1).max(60_000).optional(),
    }),
    task: 'required',
    ttlMs: (args) => args.ttlMs,
    run: async ({ steps, stepMs, pollIntervalMs }, work) => {
      for (let step = 1; step <= steps; step++) {
        if (step === 2 && pollIntervalMs !== undefined) work.suggestPollInterval(pollIntervalMs);
        if (!work.progress(stepMessage(step, steps))) return undefined;
        await pause(stepMs);
      }
      return textResult(`done after ${steps} steps`);
    },
  },
  {
    name: 'maybe-task',
    description:
      'Echoes `text` ("echo: <text>"): as a task (after `stepMs`) when the client declared the tasks extension, inline otherwise.',
    inputSchema: z.object({ text: z.string(), stepMs: STEP_ARGS.stepMs }),
    task: 'optional',
    run: async ({ text, stepMs }) => {
      await pause(stepMs);
      return textResult(`echo: ${text}`);
    },
    inline: async ({ text }) => textResult(`echo: ${text}`),
  },
  {
    name: 'ask-mid-task',
    description:
      'A task that asks `questions` form elicitations (keys "answer-1"…, message "Question i of n", schema {answer: string}), one after another or, with `together`, all at once; completes with text JSON of the answers ("(decline)" for a refusal). Needs the elicitation capability.',
    inputSchema: z.object({
      questions: z.number().int().min(1).max(5).default(1),
      together: z.boolean().default(false),
      stepMs: STEP_ARGS.stepMs,
    }),
    task: 'required',
    needs: { elicitation: {} },
    run: async ({ questions, together, stepMs }, work) => {
      if (!work.progress('preparing the questions')) return undefined;
      await pause(stepMs);
      const ask = (/** @type {number} */ index) =>
        work.ask(
          `answer-${index}`,
          {
            method: 'elicitation/create',
            params: { mode: 'form', message: `Question ${index} of ${questions}`, requestedSchema: ANSWER_SCHEMA },
          },
          `waiting for answer ${index} of ${questions}`,
        );
      const indexes = Array.from({ length: questions }, (_, index) => index + 1);
      /** @type {unknown[]} */
      let answers = [];
      if (together) answers = await Promise.all(indexes.map(ask));
      else for (const index of indexes) answers.push(await ask(index));
      if (!work.progress('answers received')) return undefined;
      await pause(stepMs);
      return textResult(JSON.stringify(answers.map(answerText)));
    },
  },
  {
    name: 'fail-task',
    description:
      'A task that ends badly after `stepMs`. how "rpc-error" (default): status failed, error {code: -32603, message: "simulated failure"}. how "tool-error": status completed with an isError result.',
    inputSchema: z.object({ how: z.enum(['rpc-error', 'tool-error']).default('rpc-error'), stepMs: STEP_ARGS.stepMs }),
    task: 'required',
    run: async ({ how, stepMs }, work) => {
      if (!work.progress('about to fail')) return undefined;
      await pause(stepMs);
      if (how === 'tool-error') return errorResult('simulated failure');
      work.fail({ code: -32603, message: 'simulated failure' });
      return undefined;
    },
  },
  {
    name: 'cancellable',
    description:
      'A task that works in steps of `stepMs` (statusMessage "working for Nms") for up to `maxMs`; tasks/cancel makes it cancelled at once. Completes with "not cancelled within <maxMs>ms" otherwise.',
    inputSchema: z.object({ maxMs: z.number().int().min(0).max(120_000).default(30_000), stepMs: STEP_ARGS.stepMs }),
    task: 'required',
    run: async ({ maxMs, stepMs }, work) => {
      const started = Date.now();
      while (Date.now() - started < maxMs) {
        if (!work.progress(`working for ${Date.now() - started}ms`)) return undefined;
        await pause(Math.max(stepMs, 1));
      }
      return textResult(`not cancelled within ${maxMs}ms`);
    },
  },
  {
    name: 'confirm-then-task',
    description:
      'Multi-round-trip first, then a task: answers input_required (key "confirm", form {confirm: boolean}) until the retry brings it; confirmed, returns a task that completes with "confirmed, done after n steps", else completes at once with "not confirmed (<action or false>)".',
    inputSchema: z.object(STEP_ARGS),
    task: 'required',
    gate: (_args, responses) => {
      const confirm = responses.confirm;
      if (confirm === undefined) {
        return { elicit: { confirm: { mode: 'form', message: 'Start the task?', requestedSchema: CONFIRM_SCHEMA } } };
      }
      if (confirm.action === 'accept' && confirm.content?.confirm === true) return { proceed: true };
      const why = confirm.action === 'accept' ? String(confirm.content?.confirm) : String(confirm.action);
      return { answer: textResult(`not confirmed (${why})`) };
    },
    run: async ({ steps, stepMs }, work) => {
      for (let step = 1; step <= steps; step++) {
        if (!work.progress(stepMessage(step, steps))) return undefined;
        await pause(stepMs);
      }
      return textResult(`confirmed, done after ${steps} steps`);
    },
  },
  {
    name: 'echo',
    description: 'Echoes `text` at once; never a task.',
    inputSchema: z.object({ text: z.string() }),
    task: 'never',
    inline: async ({ text }) => textResult(text),
  },
]);

/**
 * Starts a tool's work on a new task and returns the task at once: the work
 * runs on, and its result (or a thrown error, as `-32603`) ends the task.
 * @param {import('./modern-task-store.mjs').ModernTaskStore} store
 * @param {ModernTaskTool} tool
 * @param {unknown} args parsed arguments
 * @returns {import('./modern-task-store.mjs').TaskRecord}
 */
export function startTask(store, tool, args) {
  const ttlMs = tool.ttlMs?.(args);
  const task = store.create({ ...(ttlMs !== undefined && { ttlMs }), statusMessage: 'started' });
  /** @type {TaskWork} */
  const work = {
    progress: (message) => store.progress(task, message),
    suggestPollInterval: (ms) => {
      task.pollIntervalMs = ms;
    },
    ask: (key, request, message) => store.ask(task, key, request, message),
    fail: (error) => store.fail(task, error),
  };
  const run = /** @type {NonNullable<ModernTaskTool['run']>} */ (tool.run);
  run(args, work).then(
    (result) => {
      if (result !== undefined) store.complete(task, result, 'done');
    },
    (error) => store.fail(task, { code: -32603, message: messageOf(error) }),
  );
  return task;
}
