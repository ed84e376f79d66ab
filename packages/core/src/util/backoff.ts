/**
 * Capped exponential backoff with full jitter: a random wait in
 * [0, min(maxDelay, base · 2^attempt)], so many clients do not retry in step.
 */
export function backoffDelay(attempt: number, baseDelay: number, maxDelay: number, random = Math.random): number {
  return Math.floor(random() * Math.min(maxDelay, baseDelay * 2 ** attempt));
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}
