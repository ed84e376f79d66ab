import type { RequestId } from '../protocol/jsonrpc.js';
import type { Progress } from './options.js';

/** One request waiting for its response. */
export interface PendingCall {
  readonly method: string;
  /** Validates the raw `result`; throws a ProtocolError when it has the wrong shape. */
  readonly parse: (result: unknown) => unknown;
  readonly onProgress: ((progress: Progress) => void) | undefined;
  readonly resolve: (value: unknown) => void;
  /** Rejects the call and releases its timers and listeners. */
  readonly reject: (error: unknown) => void;
  /** Ends what the transport holds for the call (its HTTP stream), without settling it. */
  readonly abandon: (reason: unknown) => void;
  /** Progress arrived: the per-call timeout starts again. */
  readonly restartTimeout: () => void;
}

/**
 * Ids of calls that gave up (timeout, abort) remembered for a while, so that a
 * response arriving after cancellation is dropped quietly instead of being
 * reported as a stray message. Bounded: the oldest ids are forgotten first.
 */
export class RecentIds {
  readonly #ids = new Set<RequestId>();
  readonly #limit: number;

  constructor(limit = 1024) {
    this.#limit = limit;
  }

  add(id: RequestId): void {
    this.#ids.add(id);
    if (this.#ids.size > this.#limit) {
      const oldest = this.#ids.values().next().value;
      if (oldest !== undefined) this.#ids.delete(oldest);
    }
  }

  /** True once for an id that was added; the id is forgotten afterwards. */
  take(id: RequestId): boolean {
    return this.#ids.delete(id);
  }
}

/** `setTimeout` treats anything above 2^31-1 ms as 1 ms; clamp instead of firing at once. */
const MAX_TIMER = 2 ** 31 - 1;

/** A restartable one-shot timer; a missing, zero or non-finite delay means "never". */
export class CallTimer {
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #ms: number | undefined;
  readonly #onFire: () => void;

  constructor(ms: number | undefined, onFire: () => void) {
    this.#ms = ms !== undefined && Number.isFinite(ms) && ms > 0 ? Math.min(ms, MAX_TIMER) : undefined;
    this.#onFire = onFire;
  }

  start(): void {
    if (this.#ms === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(this.#onFire, this.#ms);
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
