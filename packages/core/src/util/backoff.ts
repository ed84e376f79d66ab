import { type DelayBounds, timerDelay } from './timers.js';

/**
 * Capped exponential backoff with full jitter: a random wait in
 * [0, min(maxDelay, base · 2^attempt)], so many clients do not retry in step.
 */
export function backoffDelay(attempt: number, baseDelay: number, maxDelay: number, random = Math.random): number {
  return Math.floor(random() * Math.min(maxDelay, baseDelay * 2 ** attempt));
}

/**
 * Resolves after `ms`, or rejects with the signal's reason when it aborts first.
 * Every wait of the client goes through here, and `ms` through {@link timerDelay}
 * with `bounds`: a loop gives its floor as `bounds.min` (and its own `fallback`),
 * so a NaN, a negative or a huge delay never makes it spin.
 */
export function sleep(ms: number | undefined, signal: AbortSignal, bounds?: DelayBounds): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      timerDelay(ms, bounds),
    );
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}
