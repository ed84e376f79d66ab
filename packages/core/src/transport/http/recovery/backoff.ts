/** First backoff step in ms (RetryOptions.baseDelay). */
export const DEFAULT_BASE_DELAY = 250;
/** Cap for one backoff, and the longest `Retry-After` honoured, in ms (RetryOptions.maxDelay). */
export const DEFAULT_MAX_DELAY = 10_000;

/**
 * Longest SSE `retry:` honoured, in ms (10 minutes). Timers fire at once past
 * 2^31 - 1 ms, so an unbounded value would turn the longest wait into none.
 */
export const MAX_SSE_RETRY = 600_000;

/**
 * `Retry-After` in ms: delta-seconds or an HTTP date (RFC 9110 §10.2.3).
 * Undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
