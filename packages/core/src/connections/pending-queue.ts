import * as v from 'valibot';
import { elicitationAnswerBreach } from '../client/answering/elicitation-answer.js';
import type { ElicitationOptions, HandlerContext, SamplingOptions } from '../client/options.js';
import { ClientClosedError } from '../errors/client-closed-error.js';
import { LimitError } from '../errors/limit-error.js';
import { McpError } from '../errors/mcp-error.js';
import { RpcError } from '../errors/rpc-error.js';
import type { ElicitRequestParams, ElicitResult } from '../protocol/elicitation.js';
import { ErrorCode } from '../protocol/error-codes.js';
import {
  type CreateMessageRequestParams,
  type CreateMessageResult,
  CreateMessageResultSchema,
} from '../protocol/sampling.js';
import type { ConnectionEvent } from './connection-state.js';
import type { PendingElicitation, PendingRequest, PendingSampling } from './pending-request.js';

/**
 * Server requests a queue holds for the user unless told otherwise: half the
 * client's default `limits.maxConcurrentHandlers` (16), since each waiting
 * request holds one of those slots, and the server's notifications and other
 * requests need the rest.
 */
export const DEFAULT_MAX_PENDING = 8;

/** Options of {@link PendingQueue}. */
export interface PendingQueueOptions {
  /**
   * Requests waiting at once (default {@link DEFAULT_MAX_PENDING}, 8). One past
   * it is refused at once with a `LimitError` naming `maxPending` (a legacy
   * server gets -32603 with its message; a 2026-07-28 call fails with it);
   * nothing waiting is touched. Each waiting request holds one of the client's
   * handler slots (`limits.maxConcurrentHandlers`, default 16): keep this below
   * that, or raise that with it, so notifications still find a slot.
   */
  readonly maxPending?: number;
  /**
   * The app's model can take tools in sampling (2025-11-25 on): the client then
   * declares `sampling.tools`, and requests carrying `tools` or `toolChoice` are
   * queued (default false: the client refuses them before they are queued).
   */
  readonly samplingTools?: boolean;
  /** Called after `items` changed. It must not throw. */
  readonly onChange: () => void;
  /** Hears each request added, answered (by `respond`, `decline` or `cancel`) or withdrawn. */
  readonly onEvent?: (event: ConnectionEvent) => void;
}

/** How a waiting request ends: the value the handler resolves with, or the error it rejects with. */
type Outcome<T> = { readonly value: T } | { readonly error: unknown };

/** What every item shares, made by the queue before the item itself. */
interface ItemBase {
  readonly id: string;
  readonly signal: AbortSignal;
}

/**
 * Server requests as a queue a UI renders: give `elicitation` and `sampling` to
 * the `Client` options, and each `elicitation/create` or
 * `sampling/createMessage` the server sends (a legacy request, or a 2026-07-28
 * input request of a call) waits in `items` until the UI answers it with
 * `respond`, `decline` or `cancel`. The first answer goes to the server; later
 * ones return false. An item whose request the server cancels, whose call is
 * aborted or times out, or that is still waiting when the queue closes, has its
 * `signal` aborted and leaves `items` (a `withdrawn` event).
 */
export class PendingQueue {
  readonly #maxPending: number;
  readonly #onChange: () => void;
  readonly #onEvent: ((event: ConnectionEvent) => void) | undefined;
  /** Each waiting item, in arrival order, with what withdraws it. */
  readonly #waiting = new Map<PendingRequest, (reason: unknown) => void>();
  #items: readonly PendingRequest[] = Object.freeze([]);
  #ids = 0;
  #closed: unknown;

  /** For `ClientOptions.elicitation`: form and URL mode, each request queued. */
  readonly elicitation: ElicitationOptions;
  /** For `ClientOptions.sampling`: each request queued. */
  readonly sampling: SamplingOptions;

  /** A queue with nothing waiting; `maxPending` must be a whole number from 1. */
  constructor(options: PendingQueueOptions) {
    const { maxPending = DEFAULT_MAX_PENDING } = options;
    if (!(Number.isInteger(maxPending) && maxPending >= 1)) {
      throw new RangeError(`PendingQueueOptions.maxPending must be a whole number from 1 (got ${maxPending})`);
    }
    this.#maxPending = maxPending;
    this.#onChange = options.onChange;
    this.#onEvent = options.onEvent;
    this.elicitation = Object.freeze({
      handler: (params: ElicitRequestParams, context: HandlerContext) => this.#elicit(params, context),
      url: true,
    });
    this.sampling = Object.freeze({
      handler: (params: CreateMessageRequestParams, context: HandlerContext) => this.#sample(params, context),
      tools: options.samplingTools === true,
    });
  }

  /** The requests waiting, oldest first: a frozen array, a new one only when the queue changed. */
  get items(): readonly PendingRequest[] {
    return this.#items;
  }

  /**
   * Withdraws every waiting request (each `signal` aborts with `reason`, and its
   * server or call gets that error) and refuses any that come later. Once only;
   * later calls do nothing.
   */
  close(reason: unknown = new ClientClosedError('mcp: the pending-request queue closed')): void {
    if (this.#closed !== undefined) return;
    this.#closed = reason;
    for (const withdraw of [...this.#waiting.values()]) withdraw(reason);
  }

  #elicit(params: ElicitRequestParams, context: HandlerContext): Promise<ElicitResult> {
    const url = params.mode === 'url';
    return this.#park<ElicitResult>(
      context,
      (base, answer): PendingElicitation => ({
        ...base,
        kind: 'elicitation',
        params,
        ...(context.completed && { completed: context.completed }),
        ...(context.refusedRequest !== undefined && { refusedRequest: context.refusedRequest }),
        respond: (content) => answer(() => ({ value: url ? urlAccept(content) : formAccept(params, content) })),
        decline: () => answer(() => ({ value: { action: 'decline' } })),
        cancel: () => answer(() => ({ value: { action: 'cancel' } })),
      }),
    );
  }

  #sample(params: CreateMessageRequestParams, context: HandlerContext): Promise<CreateMessageResult> {
    return this.#park<CreateMessageResult>(
      context,
      (base, answer): PendingSampling => ({
        ...base,
        kind: 'sampling',
        params,
        respond: (result) => answer(() => ({ value: samplingResult(result) })),
        decline: () => answer(refusal),
        cancel: () => answer(refusal),
      }),
    );
  }

  /**
   * Queues one request until the UI answers it (`answer`) or it is withdrawn.
   * Refused without queueing when the queue is closed or full, or the request
   * was already given up.
   */
  #park<T>(
    context: HandlerContext,
    make: (base: ItemBase, answer: (outcome: () => Outcome<T>) => boolean) => PendingRequest,
  ): Promise<T> {
    if (this.#closed !== undefined) return Promise.reject(this.#closed);
    if (context.signal.aborted) return Promise.reject(context.signal.reason);
    if (this.#waiting.size >= this.#maxPending) {
      return Promise.reject(
        new LimitError(
          'maxPending',
          this.#maxPending,
          `the client already has ${this.#maxPending} requests waiting for the user; refused this one`,
        ),
      );
    }
    return new Promise<T>((resolve, reject) => {
      const controller = new AbortController();
      const base: ItemBase = { id: `pending-${++this.#ids}`, signal: controller.signal };
      const leave = (outcome: 'answered' | 'withdrawn'): void => {
        context.signal.removeEventListener('abort', onAbort);
        this.#waiting.delete(item);
        this.#publish({ type: 'pending', request: item, outcome });
      };
      // The outcome is made only while the item waits, so a late answer is not even checked;
      // one that throws (content that does not fit) leaves the item waiting.
      const answer = (decide: () => Outcome<T>): boolean => {
        if (!this.#waiting.has(item)) return false;
        const outcome = decide();
        leave('answered');
        if ('value' in outcome) resolve(outcome.value);
        else reject(outcome.error);
        return true;
      };
      const withdraw = (reason: unknown): void => {
        if (!this.#waiting.has(item)) return;
        controller.abort(reason);
        leave('withdrawn');
        reject(reason);
      };
      const onAbort = () => withdraw(context.signal.reason);
      const item = Object.freeze(make(base, answer));
      this.#waiting.set(item, withdraw);
      context.signal.addEventListener('abort', onAbort, { once: true });
      this.#publish({ type: 'pending', request: item, outcome: 'added' });
    });
  }

  #publish(event: ConnectionEvent): void {
    this.#items = Object.freeze([...this.#waiting.keys()]);
    this.#onChange();
    this.#onEvent?.(event);
  }
}

/**
 * The sampling refusal (all revisions, client/sampling: -1, "User rejected
 * sampling request", the spec's example): what a legacy server reads as the
 * user's no. In 2026-07-28 the call that asked fails with it instead.
 */
const refusal = (): Outcome<never> => ({
  error: new RpcError(ErrorCode.UserRejected, 'User rejected sampling request'),
});

/** The app's model result, checked: a malformed one would only fail at the server. */
function samplingResult(result: CreateMessageResult): CreateMessageResult {
  const parsed = v.safeParse(CreateMessageResultSchema, result);
  if (!parsed.success) {
    throw new McpError(`the sampling result is not a CreateMessageResult: ${v.summarize(parsed.issues)}`);
  }
  return parsed.output;
}

/** A URL-mode accept: the user consented to go to the URL, which carries no content back. */
function urlAccept(content: Record<string, unknown> | undefined): ElicitResult {
  if (content !== undefined) throw new McpError('a URL-mode elicitation is accepted without content');
  return { action: 'accept' };
}

/**
 * A form-mode accept, checked against the form's `requestedSchema` with the
 * same rule the client applies before sending, so a bad answer fails here,
 * where the UI can still correct it, and not at the server.
 */
function formAccept(params: ElicitRequestParams, content: Record<string, unknown> = {}): ElicitResult {
  if (typeof content !== 'object' || content === null || Array.isArray(content)) {
    throw new McpError('an elicitation form is accepted with its content, an object of the fields');
  }
  const result: ElicitResult = { action: 'accept', content: { ...content } as ElicitResult['content'] };
  if (params.mode === 'url') return result;
  const breach = elicitationAnswerBreach(params.requestedSchema, result);
  if (breach) throw new McpError(`the answer does not fit the form: ${breach}`);
  return result;
}
