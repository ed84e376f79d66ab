/**
 * What is left of a call's hard cap (`maxTotalTimeout`) for a later wire
 * request of the same call: an input round (MRTR) or the resend after a session
 * renewal. The cap bounds the call from its start, not each request, or a
 * server could hold one call for `maxInputRounds` caps and more. A cap of 0 or
 * `Infinity` means none and is returned as is, as it is without `startedAt`;
 * past the cap the call fails with a `TimeoutError`.
 */
export function remainingTotal(method: string, cap: number, startedAt: number | undefined): number {
  if (startedAt === undefined || !isCap(cap)) return cap;
  const left = cap - (performance.now() - startedAt);
  if (left > 0) return left;
  throw totalTimeout(method, cap);
}

/**
 * The error a later part of a call failed with, as the caller should see it: a
 * `TimeoutError` once the call reached its cap names the cap, not the remainder
 * that part was given.
 */
export function asCallTimeout(error: unknown, method: string, cap: number, startedAt: number | undefined): unknown {
  if (startedAt === undefined || !isCap(cap) || !(error instanceof Error) || error.name !== 'TimeoutError')
    return error;
  // Timers may fire a millisecond early.
  return performance.now() - startedAt >= cap - 1 ? totalTimeout(method, cap) : error;
}

const isCap = (cap: number): boolean => cap > 0 && Number.isFinite(cap);

const totalTimeout = (method: string, cap: number): DOMException =>
  new DOMException(`${method} exceeded its total timeout of ${cap} ms`, 'TimeoutError');
