import { Deadlines } from './pending-calls.js';

/** A renewal's wait and the resend after it get what is left of the call's hard cap. */
export { asCallTimeout, remainingTotal } from './total-timeout.js';

/** The deadlines of session renewals and of the calls waiting for them, on one timer. */
const deadlines = new Deadlines();

/**
 * Waits for a session renewal no longer than `signal` and `timeoutMs` allow
 * (0 or Infinity: no limit), then fails with a TimeoutError naming `what`. A call
 * waits so for a renewal others may share: giving up leaves it to the calls
 * still waiting. Loaded on demand: a session that never expires never needs it.
 */
export function waitForRenewal(
  renewal: Promise<void>,
  what: string,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const settle = (settled: () => void) => {
      deadlines.stop(deadline);
      signal?.removeEventListener('abort', onAbort);
      settled();
    };
    const onAbort = () => settle(() => reject(signal?.reason));
    const deadline = deadlines.start(timeoutMs, () =>
      settle(() => reject(new DOMException(`${what} timed out after ${timeoutMs} ms`, 'TimeoutError'))),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    renewal.then(
      () => settle(resolve),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}
