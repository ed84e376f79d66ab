import { LimitError } from '../../../errors/limit-error.js';
import { backoffDelay, sleep } from '../../../util/backoff.js';
import { discard } from '../../../util/read-body.js';
import { timerDelay } from '../../../util/timers.js';
import type { RetryOptions } from '../options.js';
import { DEFAULT_BASE_DELAY, DEFAULT_MAX_DELAY, parseRetryAfter } from './backoff.js';
import { networkFailure } from './network-failure.js';

/**
 * What the policy reads of the request (an HttpRequest): whether it may be repeated after any network failure, and
 * the signal that ends the wait. Declared here so this on-demand module imports nothing back from its loader.
 */
export interface RetriedRequest {
  readonly idempotent: boolean;
  readonly signal: AbortSignal;
}

/** An attempt that failed: a response refused with 429 or 503, or what `fetch` (or following its redirects) threw. */
export type FailedAttempt = { readonly response: Response } | { readonly error: unknown };

/**
 * The retry policy's verdict on a failed attempt (Go reference, WithHTTPRetry):
 * resolves with the response that stands, rejects with the failure that stands,
 * or waits and resolves undefined when the request is to be sent again.
 *
 * Retried: 429 and 503, honouring `Retry-After`; failures that prove the
 * request never left; and, for requests that are safe to repeat, any network
 * failure — browsers hide the cause (`Failed to fetch`), so there nothing else
 * could ever be retried. Never a failure after a `tools/call` may have reached
 * the server: it could run twice. Loaded on demand: a request whose first
 * attempt succeeds never needs it.
 */
export async function afterFailedAttempt(
  failed: FailedAttempt,
  attempt: number,
  request: RetriedRequest,
  url: URL,
  retry: RetryOptions = {},
): Promise<Response | undefined> {
  // As a timer can wait: Infinity is the longest wait there is, NaN the default.
  const maxDelay = timerDelay(retry.maxDelay, { fallback: DEFAULT_MAX_DELAY });
  const retriesLeft = attempt < (retry.maxRetries ?? 0);
  let retryAfter: number | undefined;
  if ('response' in failed) {
    const { response } = failed;
    if (!retriesLeft) return response;
    retryAfter = parseRetryAfter(response.headers.get('retry-after'));
    // A server asking for a longer pause than we wait gets its error, not a hammering.
    if (retryAfter !== undefined && retryAfter > maxDelay) return response;
    await discard(response);
  } else {
    // Too many redirects (redirects.ts) is no network failure: it stands, never retried.
    if (failed.error instanceof LimitError) throw failed.error;
    const failure = networkFailure(failed.error, url.href);
    const repeatable = failure.delivered === 'no' || request.idempotent;
    if (!repeatable || !retriesLeft) throw failure;
  }
  await sleep(retryAfter ?? backoffDelay(attempt, retry.baseDelay ?? DEFAULT_BASE_DELAY, maxDelay), request.signal);
  return undefined;
}
