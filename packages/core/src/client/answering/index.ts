import { LimitError } from '../../errors/limit-error.js';
import type { RpcError } from '../../errors/rpc-error.js';
import type { JsonRpcNotification } from '../../protocol/jsonrpc.js';
import { Listeners } from '../listen/listeners.js';
import {
  type ClientOptions,
  DEFAULT_MAX_CONCURRENT_HANDLERS,
  DEFAULT_MAX_INPUT_REQUESTS,
  DEFAULT_MAX_INPUT_ROUNDS,
} from '../options.js';
import type { CallBounds, RpcChannel } from '../rpc/rpc-channel.js';
import { DispatchPool } from './dispatch-pool.js';
import { answerInputRequests, answerRounds, type CallRounds, type RoundBounds } from './input-requests.js';
import { ServerRequests } from './server-requests.js';
import { afterUrlElicitations } from './url-elicitations.js';

/**
 * Answering the server, a module the Session loads at `connect()` when the app
 * gave handlers, else the first time the server asks for something or the app
 * listens: the handlers of server requests
 * (sampling, elicitation, roots) and of notifications, in a bounded pool of
 * slots; the 2026-07-28 input rounds (MRTR), answered with the same handlers;
 * and the `listen()` subscriptions. A program whose servers never ask and that
 * never listens never downloads it.
 */
export class Answering {
  readonly #options: ClientOptions;
  readonly #channel: RpcChannel;
  readonly #pool: DispatchPool;
  readonly #requests: ServerRequests;
  readonly #rounds: RoundBounds;
  /** The open subscriptions, and where each notification goes. */
  readonly listeners: Listeners;

  constructor(channel: RpcChannel, options: ClientOptions) {
    const { limits } = options;
    this.#options = options;
    this.#channel = channel;
    this.#pool = new DispatchPool(limits?.maxConcurrentHandlers ?? DEFAULT_MAX_CONCURRENT_HANDLERS);
    const requests = new ServerRequests(options);
    this.#requests = requests;
    this.#rounds = {
      answer: (method, params, signal, refusedRequest) => requests.handle(method, params, signal, refusedRequest),
      pool: this.#pool,
      maxRounds: limits?.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
      maxInputRequests: limits?.maxInputRequests ?? DEFAULT_MAX_INPUT_REQUESTS,
      channel,
    };
    this.listeners = new Listeners(options, channel);
  }

  /** Answers a server request in a handler slot; with every slot taken it fails at once as busy. */
  answer(method: string, params: unknown, signal: AbortSignal): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      if (!this.#pool.tryRun(() => this.#requests.handle(method, params, signal).then(resolve, reject))) {
        reject(this.#busy('client busy: too many concurrent server requests'));
      }
    });
  }

  /**
   * Hands a notification, as it comes, to what waits for it here: the
   * `listen()` subscriptions, and URL-mode handlers awaiting its
   * `notifications/elicitation/complete`.
   */
  route(method: string, params: JsonRpcNotification['params']): void {
    if (method === 'notifications/elicitation/complete') this.#requests.completions.complete(params);
    this.listeners.route(method, params);
  }

  /**
   * Hands a notification to the app's `onNotification` in a handler slot, which
   * an async handler holds until it settles; with every slot taken the app's copy
   * is dropped and `onError` hears of it.
   */
  notify({ method, params }: JsonRpcNotification): void {
    const handler = this.#options.onNotification;
    if (!handler) return;
    const started = this.#pool.tryRun(async () => {
      try {
        await handler(method, params);
      } catch (error) {
        this.#channel.report(error);
      }
    });
    // The channel already acted on progress and cancellation: losing the app's copy is no news.
    if (!started && method !== 'notifications/progress' && method !== 'notifications/cancelled') {
      this.#channel.report(this.#busy(`mcp: dropped ${method}: every dispatch slot is busy`));
    }
  }

  /** Drives a call's input rounds from its first `input_required` result (2026-07-28 §MRTR). */
  answerRounds<T>(raw: unknown, call: CallRounds<T>): Promise<T> {
    return answerRounds(raw, call, this.#rounds);
  }

  /**
   * A `method` the server refused with -32042 (2025-11-25). Its URL elicitations
   * go to the app's handler, then `retry` runs once, all under the call's bounds
   * in `options`; `url-elicitations.ts` holds the rules.
   */
  afterUrlElicitations<T>(refusal: RpcError, method: string, options: CallBounds, retry: () => Promise<T>): Promise<T> {
    const label = `${method} (waiting for the user's URL elicitations)`;
    const round = {
      ...this.#rounds,
      refusedRequest: method,
      run: <R>(work: (signal: AbortSignal) => Promise<R>) => this.#channel.run(method, options, work, label),
    };
    return afterUrlElicitations(refusal, round, this.#requests.elicitsUrls, retry);
  }

  /**
   * Answers a 2026-07-28 task's input requests (`tasks/get`) with the handlers
   * and slots of an input round, under the call's bounds (`options`).
   */
  answerInputs(
    method: string,
    inputRequests: Readonly<Record<string, { readonly method: string; readonly params?: unknown }>>,
    options: CallBounds,
  ): Promise<Record<string, unknown>> {
    const label = `${method} (answering the task's input requests)`;
    return answerInputRequests(method, inputRequests, {
      ...this.#rounds,
      run: (work) => this.#channel.run(method, options, work, label),
    });
  }

  /** Runs a call's wait off the wire (a task's polls) under its bounds (`RpcChannel.run`). */
  run<T>(method: string, options: CallBounds, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return this.#channel.run(method, options, work);
  }

  /** Waits for running handlers to end, no longer than `graceMs` (close). */
  drain(graceMs: number): Promise<void> {
    return this.#pool.drain(graceMs);
  }

  #busy(message: string): LimitError {
    return new LimitError('limits.maxConcurrentHandlers', this.#pool.size, message);
  }
}
