import type { ListenFilter, Subscription } from '@mcp/core';

/** How a held subscription's wait for its acknowledgement is bounded, and who hears when it ends. */
export interface HoldOptions {
  /** The longest wait for the acknowledgement, in ms. */
  readonly timeoutMs: number;
  /** Stops the wait (the local client cancelled, or the bridge is closing). */
  readonly signal?: AbortSignal;
  /** The stream ended for good (after the acknowledgement or not): `error` when it broke. */
  readonly onEnd?: (error: unknown) => void;
}

/**
 * Reads a 2026-07-28 listen subscription to its end, so its events (the Client
 * already hands them to `onNotification`) never pile up in it, and resolves
 * with the filter the server acknowledged. Rejects when the stream ends before
 * the acknowledgement (with the server's error when it gave one), when
 * `signal` aborts, or when `timeoutMs` passes (a `TimeoutError`); the caller
 * then closes the subscription, which the server never agreed to.
 */
export function holdSubscription(subscription: Subscription, options: HoldOptions): Promise<ListenFilter> {
  const { timeoutMs, signal, onEnd } = options;
  const ended = (async () => {
    try {
      for await (const _event of subscription);
    } catch (error) {
      onEnd?.(error);
      throw error;
    }
    onEnd?.(undefined);
    throw new Error('the remote server ended the subscription before acknowledging it');
  })();
  // Read to the end whatever happens to the wait: nobody else awaits `ended`.
  ended.catch(() => {});
  const wait = AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])]);
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(abortReason(wait.reason, timeoutMs));
    if (wait.aborted) onAbort();
    else wait.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([subscription.acknowledged, ended, stopped]).finally(() => {
    if (onAbort) wait.removeEventListener('abort', onAbort);
  });
}

function abortReason(reason: unknown, timeoutMs: number): unknown {
  if (reason instanceof DOMException && reason.name === 'TimeoutError') {
    return new DOMException(
      `the remote server did not acknowledge the subscription within ${timeoutMs} ms`,
      'TimeoutError',
    );
  }
  return reason;
}
