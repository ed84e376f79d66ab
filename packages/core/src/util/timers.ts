/** `setTimeout` treats anything above 2^31-1 ms as 1 ms; clamp to this instead of firing at once. */
export const MAX_TIMER = 2 ** 31 - 1;

/** The bounds of one wait, in ms: a floor, a ceiling and what an unreadable delay means. */
export interface DelayBounds {
  /** The shortest wait (default 0). A loop passes its floor here, so no value can make it spin. */
  readonly min?: number | undefined;
  /** The longest wait (default and at most {@link MAX_TIMER}). */
  readonly max?: number | undefined;
  /** The wait when `ms` is missing or NaN (default `min`), before the bounds apply. */
  readonly fallback?: number | undefined;
}

/**
 * `ms` as a timer can take it: always a number from 0 to {@link MAX_TIMER}.
 * Every `setTimeout` whose delay is computed, or comes from a server or an
 * option, takes its delay from here, because a timer fires at once past
 * MAX_TIMER and treats NaN and negatives as 0: a server asking for a long wait
 * would otherwise get none. What each value means:
 * - missing or NaN (no delay, or one that could not be read): `fallback`;
 * - below `min`, negatives and -Infinity included: `min`;
 * - above `max`, Infinity included: `max`, the longest wait there is.
 * Bounds that are themselves NaN or out of range fall back to 0 and MAX_TIMER.
 */
export function timerDelay(ms: number | undefined, bounds: DelayBounds = {}): number {
  const max = Math.min(within(bounds.max, MAX_TIMER), MAX_TIMER);
  const min = Math.min(within(bounds.min, 0), max);
  const wanted = ms === undefined || Number.isNaN(ms) ? within(bounds.fallback, min) : ms;
  return Math.min(max, Math.max(min, wanted));
}

/** `bound` when it is a number from 0 up (Infinity included), else `otherwise`. */
function within(bound: number | undefined, otherwise: number): number {
  return bound !== undefined && bound >= 0 ? bound : otherwise;
}
