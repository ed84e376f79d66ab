import { Deadlines } from './pending-calls.js';

/** The deadlines of every call waiting for a session renewal, on one timer. */
const deadlines = new Deadlines();

/**
 * Waits for a session renewal that other calls may share, no longer than this
 * call's own signal and timeout (`timeoutMs`, as its request would wait) allow.
 * Giving up leaves the renewal to the calls still waiting. Loaded on demand: a
 * session that never expires never needs it.
 */
export function awaitRenewal(
  renewal: Promise<void>,
  method: string,
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
      settle(() =>
        reject(new DOMException(`${method} timed out after ${timeoutMs} ms waiting for a new session`, 'TimeoutError')),
      ),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    renewal.then(
      () => settle(resolve),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}
