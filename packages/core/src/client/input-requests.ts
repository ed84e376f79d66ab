import * as v from 'valibot';
import { McpError } from '../errors/mcp-error.js';
import { ProtocolError } from '../errors/protocol-error.js';
import { RpcError } from '../errors/rpc-error.js';
import { protocolIssues } from '../protocol/issues.js';
import { InputRequiredResultSchema } from '../protocol/mrtr.js';
import { linkedSignal } from '../util/linked-signal.js';
import { MAX_TIMER } from '../util/timers.js';
import type { DispatchPool } from './dispatch-pool.js';
import type { EraRequestOptions } from './era.js';
import type { AnswerRequest } from './request-answerer.js';
import type { RequestOptions } from './rpc-channel.js';
import { asCallTimeout, remainingTotal } from './total-timeout.js';

/** A result as the MRTR loop sees it: complete (parsed for the caller) or asking for input. */
export type Step<T> = { readonly done: true; readonly value: T } | { readonly done: false; readonly raw: unknown };

/** An `input_required` result, validated. */
export type InputRequired = v.InferOutput<typeof InputRequiredResultSchema>;

/** What one round of answers runs under: the call's bounds and the client's handler slots. */
export interface Round {
  /** The client's handler slots (limits.maxConcurrentHandlers); its `ended` aborts the round on close. */
  readonly pool: DispatchPool;
  /** The caller's signal, when it gave one. */
  readonly signal: AbortSignal | undefined;
  /** How long the round's handlers may take, in ms (the call's timeout); 0, less or non-finite means no limit. */
  readonly timeout: number;
  /** Input requests one round may carry (limits.maxInputRequests). */
  readonly maxInputRequests: number;
}

/** One call's rounds: the call, and how the era sends a retry of it. */
export interface CallRounds<T> {
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
  readonly options: EraRequestOptions<Step<T>>;
  /** Sends the call again with `params`, through the era (its envelope and headers). */
  readonly send: (params: Record<string, unknown>, options: RequestOptions<Step<T>>) => Promise<Step<T>>;
}

/**
 * The era's bounds on rounds and its handlers. Declared here, with the rounds they bound, and extended by
 * ModernEraOptions: the era imports the driver (on demand), never the other way round.
 */
export interface RoundBounds {
  /** Answers input requests with the client's handlers. */
  readonly answer: AnswerRequest;
  /** Input rounds one request may take before it fails (limits.maxInputRounds). */
  readonly maxRounds: number;
  /** Input requests one round may carry (limits.maxInputRequests). */
  readonly maxInputRequests: number;
  /** The handler slots input requests are answered in (limits.maxConcurrentHandlers). */
  readonly pool: DispatchPool;
  /** The default per-call timeout (requestTimeout); it also bounds each round's handlers. */
  readonly requestTimeout: number;
  /** The default hard cap on a call (ClientOptions.maxTotalTimeout); it also bounds each round's handlers. */
  readonly maxTotalTimeout: number;
}

/**
 * Answers the server's input requests and retries, round after round, from a
 * call's first `input_required` result (`raw`), at most `maxRounds` rounds. The
 * rounds share the call's hard cap (maxTotalTimeout), counted from the call's
 * start: each round's handlers and each retry get what is left of it, so a
 * server cannot hold one call for a fresh cap per round.
 */
export async function answerRounds<T>(raw: unknown, call: CallRounds<T>, bounds: RoundBounds): Promise<T> {
  const { method, params, options } = call;
  const { answer, pool, maxRounds, maxInputRequests } = bounds;
  const timeout = options.timeout ?? bounds.requestTimeout;
  const cap = options.maxTotalTimeout ?? bounds.maxTotalTimeout;
  try {
    for (let round = 0; ; round++) {
      const input = inputRequired(method, raw, maxInputRequests);
      if (round >= maxRounds) {
        throw new McpError(
          `${method}: the server asked for input more than ${maxRounds} times (limits.maxInputRounds)`,
        );
      }
      options.onInputRound?.();
      const left = remainingTotal(method, cap, options.startedAt);
      const extra = await retryParams(answer, method, input, {
        pool,
        signal: options.signal,
        timeout: left ? Math.min(timeout || Infinity, left) : timeout,
        maxInputRequests,
      });
      const retry = { ...options, maxTotalTimeout: remainingTotal(method, cap, options.startedAt) };
      const step = await call.send({ ...params, ...extra }, retry);
      if (step.done) return step.value;
      raw = step.raw;
    }
  } catch (error) {
    throw asCallTimeout(error, method, cap, options.startedAt);
  }
}

/**
 * Validates an `input_required` result (2026-07-28 §MRTR). The modern era loads
 * this module on the first such result, so servers that never ask for input
 * cost a program nothing here. A round asking for more than `maxInputRequests`
 * inputs fails before anything is validated or any handler runs: a server must
 * not make one call ask the user thousands of questions.
 */
export function inputRequired(method: string, raw: unknown, maxInputRequests: number): InputRequired {
  const requests = (raw as { inputRequests?: unknown }).inputRequests;
  const count = typeof requests === 'object' && requests !== null ? Object.keys(requests).length : 0;
  if (count > maxInputRequests) {
    throw new McpError(
      `${method}: the server asked for ${count} inputs in one round, more than ${maxInputRequests} (limits.maxInputRequests)`,
    );
  }
  const parsed = v.safeParse(InputRequiredResultSchema, raw);
  if (!parsed.success) {
    throw new ProtocolError(`${method}: invalid input_required result: ${v.summarize(parsed.issues)}`, {
      issues: protocolIssues(parsed.issues),
      received: raw,
    });
  }
  return parsed.output;
}

/**
 * The params the retry adds: an answer to every input request, and the opaque
 * `requestState` echoed exactly as received, never read (2026-07-28 §MRTR).
 */
export async function retryParams(
  answer: AnswerRequest,
  method: string,
  { inputRequests, requestState }: InputRequired,
  round: Round,
): Promise<Record<string, unknown>> {
  return {
    ...(inputRequests && { inputResponses: await answerInputRequests(answer, method, inputRequests, round) }),
    ...(requestState !== undefined && { requestState }),
  };
}

/**
 * Answers every input request of one round with the handlers the legacy era
 * uses for real server requests, in the client's handler slots. Their signal
 * aborts when the call is aborted, when the round outlasts the call's timeout,
 * when the client closes, or when another input of the round failed; the call
 * then fails at once, whether or not a handler heeds it. Elicitation with no
 * handler is declined — an answer the server understands. A request nothing can
 * answer (sampling or roots we never declared, an unknown method) fails the
 * call: the protocol has no error slot in `inputResponses`.
 */
async function answerInputRequests(
  answer: AnswerRequest,
  method: string,
  inputRequests: Readonly<Record<string, { readonly method: string; readonly params?: unknown }>>,
  round: Round,
): Promise<Record<string, unknown>> {
  // Checked before any listener is added, so a round that never starts leaves none behind.
  if (round.pool.ended.aborted) throw round.pool.ended.reason;
  if (round.signal?.aborted) throw round.signal.reason;
  const controller = new AbortController();
  const { signal } = controller;
  // The pool outlives every call: rounds hang off it through a link of their own
  // (one listener on it, whatever the number of rounds), let go when they end.
  const closed = linkedSignal(round.pool.ended);
  const onClose = (): void => controller.abort(closed.signal.reason);
  const onAbort = (): void => controller.abort(round.signal?.reason);
  closed.signal.addEventListener('abort', onClose, { once: true });
  round.signal?.addEventListener('abort', onAbort, { once: true });
  // As for every call's deadline, zero or a non-finite timeout means none; a long one is clamped to what timers take.
  const timer =
    Number.isFinite(round.timeout) && round.timeout > 0
      ? setTimeout(
          () => {
            const message = `${method} timed out after ${round.timeout} ms while answering the server's input requests`;
            controller.abort(new DOMException(message, 'TimeoutError'));
          },
          Math.min(round.timeout, MAX_TIMER),
        )
      : undefined;
  const stopped = new Promise<never>((_, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  const answers = Promise.all(
    Object.entries(inputRequests).map(([key, input]) =>
      inSlot(round.pool, async () => [key, await answerOne(answer, method, key, input, signal)] as const, stopped),
    ),
  );
  // Whichever loses the race settles later, unobserved.
  answers.catch(noop);
  stopped.catch(noop);
  try {
    return Object.fromEntries(await Promise.race([answers, stopped]));
  } catch (error) {
    // Whatever failed the round, the handlers still at work on it can stop.
    controller.abort(error);
    throw error;
  } finally {
    clearTimeout(timer);
    closed.unlink();
    closed.signal.removeEventListener('abort', onClose);
    round.signal?.removeEventListener('abort', onAbort);
  }
}

const noop = (): void => {};

/**
 * Runs `task` in one of the client's handler slots, waiting while all are taken
 * until `stopped` rejects. Every waiter of a round races the same two promises,
 * so waiting adds no abort listener per input request.
 */
async function inSlot<T>(pool: DispatchPool, task: () => Promise<T>, stopped: Promise<never>): Promise<T> {
  for (;;) {
    let started: Promise<T> | undefined;
    const run = () => {
      started = task();
      return started.then(noop, noop);
    };
    if (pool.tryRun(run) && started) return started;
    await Promise.race([pool.freed(), stopped]);
  }
}

async function answerOne(
  answer: AnswerRequest,
  method: string,
  key: string,
  input: { readonly method: string; readonly params?: unknown },
  signal: AbortSignal,
): Promise<unknown> {
  try {
    return await answer(input.method, input.params ?? {}, signal);
  } catch (error) {
    if (error instanceof RpcError) {
      throw new ProtocolError(
        `${method}: the server asked for ${input.method} (input ${JSON.stringify(key)}), which this client cannot answer: ${error.rpcMessage}`,
        undefined,
        { cause: error },
      );
    }
    throw error;
  }
}
