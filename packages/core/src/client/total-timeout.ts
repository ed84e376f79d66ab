/**
 * What is left of a call's hard cap (`maxTotalTimeout`) for a later wire
 * request of the same call: an input round (MRTR) or the resend after a session
 * renewal. The cap bounds the call from its start, not each request, or a
 * server could hold one call for `maxInputRounds` caps and more. A cap of 0 or
 * `Infinity` means none and is returned as is, as it is without `startedAt`;
 * past the cap the call fails with a `TimeoutError`.
 */
export function remainingTotal(method: string, cap: number, startedAt: number | undefined): number {
  if (startedAt === undefined || !(cap > 0 && Number.isFinite(cap))) return cap;
  const left = cap - (performance.now() - startedAt);
  if (left > 0) return left;
  throw new DOMException(`${method} exceeded its total timeout of ${cap} ms`, 'TimeoutError');
}
