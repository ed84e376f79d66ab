import { backoffDelay } from '../util/backoff.js';
import { timerDelay } from '../util/timers.js';

/** The bounds of a budget, every one resolved (ReconnectOptions with its defaults). */
export interface BudgetBounds {
  readonly maxAttempts: number;
  readonly maxElapsedMs: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

/** One attempt the budget allows: its number (from 1) and the wait before it, in ms. */
export interface PlannedAttempt {
  readonly attempt: number;
  readonly delay: number;
}

/**
 * What is left of the reconnect budget since the connection last made
 * progress. Only `reset()` gives attempts back, and the connection calls it when a
 * request succeeded: a server that accepts connections and drops them before
 * answering anything spends the budget instead of looping for ever.
 */
export class ReconnectBudget {
  readonly #bounds: BudgetBounds;
  readonly #random: () => number;
  #attempts = 0;
  /** When the first failure since the last progress happened (epoch ms). */
  #since: number | undefined;

  constructor(bounds: BudgetBounds, random: () => number) {
    this.#bounds = bounds;
    this.#random = random;
  }

  /** Attempts planned since the last progress. */
  get attempts(): number {
    return this.#attempts;
  }

  /**
   * The next attempt after a drop or a failed attempt at `now`, or undefined when
   * the budget is spent: `maxAttempts` made, or the attempt would start past
   * `maxElapsedMs` since the first failure. Each wait is random within the upper
   * half of a step that doubles each time (`baseDelayMs` · 2^(n-1), at most
   * `maxDelayMs`), so it grows yet clients do not retry in step.
   */
  next(now: number): PlannedAttempt | undefined {
    const { maxAttempts, maxElapsedMs, baseDelayMs, maxDelayMs } = this.#bounds;
    this.#since ??= now;
    if (this.#attempts >= maxAttempts) return undefined;
    const step = Math.min(maxDelayMs, baseDelayMs * 2 ** this.#attempts);
    const delay = timerDelay(
      Math.round(step / 2 + backoffDelay(this.#attempts, baseDelayMs, maxDelayMs, this.#random) / 2),
    );
    if (now + delay - this.#since > maxElapsedMs) return undefined;
    this.#attempts++;
    return { attempt: this.#attempts, delay };
  }

  /** The connection made progress: the whole budget is available again. */
  reset(): void {
    this.#attempts = 0;
    this.#since = undefined;
  }
}
