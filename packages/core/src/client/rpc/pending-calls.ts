import { timerDelay } from '../../util/timers.js';
import type { Progress } from '../options.js';

/** One request waiting for its response. */
export interface PendingCall {
  readonly method: string;
  /** Validates the raw `result`; throws a ProtocolError when it has the wrong shape. */
  readonly parse: (result: unknown) => unknown;
  readonly onProgress: ((progress: Progress) => void) | undefined;
  /** Hears the size of the answer, as the transport reported it (`CallBounds.onReceived`). */
  readonly received: ((size: number) => void) | undefined;
  readonly resolve: (value: unknown) => void;
  /** Rejects the call and releases its timers and listeners. */
  readonly reject: (error: unknown) => void;
  /** Ends what the transport holds for the call (its HTTP stream), for a transport that cancels by closing. */
  readonly ended: AbortController | undefined;
  /** The per-call timeout, which progress starts again. */
  readonly timeout: Deadline | undefined;
}

/** A pending call's deadline, as `Deadlines` tracks it; undefined means none. */
export interface Deadline {
  at: number;
  readonly span: number;
  readonly expire: () => void;
  /** Its index among the live deadlines; -1 once it is stopped or expired. */
  slot: number;
}

/**
 * The deadlines of every pending call, on one timer armed for the earliest.
 * A timer per call costs a `setTimeout` and a `clearTimeout` per request and
 * wakes the event loop more often; here a call that ends in time costs a clock
 * read. When nothing is pending the timer stops holding the process open.
 * The live deadlines are an array, not a `Set`, for the reason the pending
 * calls are not a `Map` (`RpcChannel`): a stopped one leaves it at once, its
 * slot taken by the last.
 */
export class Deadlines {
  readonly #live: Deadline[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires; Infinity when none is armed. */
  #due = Infinity;

  /**
   * `expire` runs once `ms` pass from `now` without a restart; a missing, zero
   * or non-finite `ms` means never. `now` is the caller's clock reading, when it
   * has one: the clock is read once per request, not once per deadline.
   */
  start(ms: number | undefined, expire: () => void, now = performance.now()): Deadline | undefined {
    if (ms === undefined || !Number.isFinite(ms) || ms <= 0) return undefined;
    const span = timerDelay(ms);
    const deadline: Deadline = { at: now + span, span, expire, slot: this.#live.length };
    this.#live.push(deadline);
    this.#arm(deadline.at);
    return deadline;
  }

  /** Pushes a deadline back by its whole span (progress arrived). */
  restart(deadline: Deadline | undefined): void {
    if (deadline) deadline.at = performance.now() + deadline.span;
  }

  /** Drops a deadline (its call settled); with none left the timer lets the process exit. Idempotent. */
  stop(deadline: Deadline | undefined): void {
    if (deadline && deadline.slot >= 0) {
      this.#remove(deadline);
      if (this.#live.length === 0) hold(this.#timer, false);
    }
  }

  /** Drops every deadline and the timer (the channel closed). */
  clear(): void {
    for (const deadline of this.#live) deadline.slot = -1;
    this.#live.length = 0;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#due = Infinity;
  }

  #remove(deadline: Deadline): void {
    const last = this.#live.pop() as Deadline;
    if (last !== deadline) {
      this.#live[deadline.slot] = last;
      last.slot = deadline.slot;
    }
    deadline.slot = -1;
  }

  #arm(at: number): void {
    if (this.#timer !== undefined && this.#due <= at) {
      hold(this.#timer, true);
      return;
    }
    clearTimeout(this.#timer);
    this.#due = at;
    this.#timer = setTimeout(this.#fire, timerDelay(at - performance.now()));
  }

  readonly #fire = (): void => {
    this.#timer = undefined;
    this.#due = Infinity;
    const now = performance.now();
    const expired = this.#live.filter((entry) => entry.at <= now);
    for (const entry of expired) this.#remove(entry);
    let next = Infinity;
    for (const entry of this.#live) next = Math.min(next, entry.at);
    if (next !== Infinity) this.#arm(next);
    for (const entry of expired) entry.expire();
  };
}

/** Waits for `work` to settle, but no longer than `ms`; never rejects (close: the read loop, then the handlers). */
export async function within(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timerDelay(ms));
  });
  await Promise.race([work.then(noop, noop), grace]);
  clearTimeout(timer);
}

const noop = (): void => {};

/** Whether a Node or Deno timer keeps the process alive; browsers' numeric timers have no such switch. */
function hold(timer: ReturnType<typeof setTimeout> | undefined, alive: boolean): void {
  const handle = timer as { ref?: () => void; unref?: () => void } | undefined;
  if (alive) handle?.ref?.();
  else handle?.unref?.();
}
