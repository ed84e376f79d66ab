import * as v from 'valibot';
import { LimitError } from '../../errors/limit-error.js';
import { McpError } from '../../errors/mcp-error.js';
import { ProtocolError } from '../../errors/protocol-error.js';
import { RpcError } from '../../errors/rpc-error.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { InputRequiredResultSchema } from '../../protocol/mrtr.js';
import type { EraRequestOptions } from '../eras/era.js';
import { protocolIssues } from '../rpc/protocol-issues.js';
import type { RequestOptions, RpcChannel } from '../rpc/rpc-channel.js';
import type { DispatchPool } from './dispatch-pool.js';
import type { AnswerRequest } from './server-requests.js';

/** A result as the MRTR loop sees it: complete (parsed for the caller) or asking for input. */
export type Step<T> = { readonly done: true; readonly value: T } | { readonly done: false; readonly raw: unknown };

/** An `input_required` result, validated. */
export type InputRequired = v.InferOutput<typeof InputRequiredResultSchema>;

/** One call's rounds: the call, and how the era sends a retry of it. */
export interface CallRounds<T> {
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
  /** The call's options; every retry goes with them, so the call's hard cap counts from its `startedAt`. */
  readonly options: EraRequestOptions<Step<T>>;
  /** Sends the call again with `params`, through the era (its envelope and headers). */
  readonly send: (params: Record<string, unknown>, options: RequestOptions<Step<T>>) => Promise<Step<T>>;
}

/** What the answers of one round run in, and under. */
export interface Round {
  /** Answers one input request with the client's handlers. */
  readonly answer: AnswerRequest;
  /** The client's handler slots (limits.maxConcurrentHandlers). */
  readonly pool: DispatchPool;
  /** Input requests one round may carry (limits.maxInputRequests). */
  readonly maxInputRequests: number;
  /**
   * Runs the round's handlers under the call's bounds (`RpcChannel.run`): its
   * signal, its timeout, its hard cap, and the client's close.
   */
  readonly run: <T>(work: (signal: AbortSignal) => Promise<T>) => Promise<T>;
}

/** The client's bounds on a call's rounds, and what answers them. */
export interface RoundBounds extends Omit<Round, 'run'> {
  /** Input rounds one request may take before it fails (limits.maxInputRounds). */
  readonly maxRounds: number;
  /** The channel the call's requests go through; each round's handlers run under its bounds too. */
  readonly channel: RpcChannel;
}

/**
 * Answers the server's input requests and retries, round after round, from a
 * call's first `input_required` result (`raw`), at most `maxRounds` rounds. The
 * rounds share the call's bounds: the channel counts its hard cap from the call's
 * start for every round's handlers and every retry, so a server cannot hold one
 * call for a fresh cap per round.
 */
export async function answerRounds<T>(raw: unknown, call: CallRounds<T>, bounds: RoundBounds): Promise<T> {
  const { method, params, options } = call;
  const { maxRounds, channel } = bounds;
  const label = `${method} (answering the server's input requests)`;
  const round: Round = { ...bounds, run: (work) => channel.run(method, options, work, label) };
  for (let rounds = 0; ; rounds++) {
    const input = inputRequired(method, raw, bounds.maxInputRequests);
    if (rounds >= maxRounds) {
      throw new LimitError(
        'limits.maxInputRounds',
        maxRounds,
        `${method}: the server asked for input more than ${maxRounds} times`,
      );
    }
    options.onInputRound?.();
    const step = await call.send({ ...params, ...(await retryParams(method, input, round)) }, options);
    if (step.done) return step.value;
    raw = step.raw;
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
    throw new LimitError(
      'limits.maxInputRequests',
      maxInputRequests,
      `${method}: the server asked for ${count} inputs in one round, more than ${maxInputRequests}`,
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
  method: string,
  { inputRequests, requestState }: InputRequired,
  round: Round,
): Promise<Record<string, unknown>> {
  return {
    ...(inputRequests && { inputResponses: await answerInputRequests(method, inputRequests, round) }),
    ...(requestState !== undefined && { requestState }),
  };
}

/**
 * Answers every input request of one round with the handlers the legacy era
 * uses for real server requests, in the client's handler slots. Their signal
 * aborts when the call is aborted, when the round outlasts the call's timeout or
 * cap, when the client closes, or when another input of the round failed; the
 * call then fails at once, whether or not a handler heeds it. Elicitation with no
 * handler is declined — an answer the server understands. A request nothing can
 * answer (sampling or roots we never declared, an unknown method) fails the
 * call with a `ProtocolError`: the protocol has no error slot in
 * `inputResponses`. For the same reason a request the user declined (-1, the
 * sampling refusal) fails the call, with an `McpError` that says so and has
 * the refusal as its `cause`.
 */
export function answerInputRequests(
  method: string,
  inputRequests: Readonly<Record<string, { readonly method: string; readonly params?: unknown }>>,
  round: Round,
): Promise<Record<string, unknown>> {
  return round.run(async (signal) => {
    const stopped = stoppedBy(signal);
    const answers = await Promise.all(
      Object.entries(inputRequests).map(([key, input]) =>
        inSlot(
          round.pool,
          async () => [key, await answerOne(round.answer, method, key, input, signal)] as const,
          stopped,
        ),
      ),
    );
    return Object.fromEntries(answers);
  });
}

const noop = (): void => {};

/** Rejects with `signal`'s reason once it aborts: what a round's waiters race. Settles only then, maybe unobserved. */
export function stoppedBy(signal: AbortSignal): Promise<never> {
  const stopped = new Promise<never>((_, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  stopped.catch(noop);
  return stopped;
}

/**
 * Runs `task` in one of the client's handler slots, waiting while all are taken
 * until `stopped` rejects. Every waiter of a round races the same two promises,
 * so waiting adds no abort listener per input request.
 */
export async function inSlot<T>(pool: DispatchPool, task: () => Promise<T>, stopped: Promise<never>): Promise<T> {
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
    // The user's no (the queue's decline, or a handler's own -1) is an answer the protocol cannot carry
    // back in `inputResponses`, not a request this client cannot answer: the call fails saying so.
    if (error instanceof RpcError && error.code === ErrorCode.UserRejected) {
      throw new McpError(
        `${method}: the user declined the server's ${input.method} request (input ${JSON.stringify(key)}): ${error.rpcMessage}`,
        { cause: error },
      );
    }
    if (error instanceof RpcError) {
      throw new ProtocolError(
        `${method}: the server asked for ${input.method} (input ${JSON.stringify(key)}), which this client cannot answer: ${error.rpcMessage}`,
        { received: input },
        { cause: error },
      );
    }
    throw error;
  }
}
