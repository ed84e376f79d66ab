/**
 * The bounds of a store whose `update` holds a lock that other processes wait
 * for (Redis, files): how long it may hold it and how long a waiter waits.
 */
export interface LeaseOptions {
  /**
   * The longest an `update` holds its key's lock, in ms (default 60 s, `DEFAULT_LEASE_MS`).
   * After it the lock counts as abandoned, so a process that died holding it blocks
   * the others no longer; a `change` still running then has its result refused
   * (a `StoreError`, `lease_expired`).
   */
  readonly leaseMs?: number;
  /**
   * How long an `update` waits for another holder's lock, in ms (default 70 s,
   * `DEFAULT_LOCK_WAIT_MS`); then it fails with a `StoreError` (`lock_timeout`)
   * and `change` does not run.
   */
  readonly lockWaitMs?: number;
}

/**
 * How long an update may hold a lock unless told (ms): above what a token refresh
 * may take (two requests of at most 30 s each), so a slow authorization server
 * does not cost the refreshed tokens.
 */
export const DEFAULT_LEASE_MS = 60_000;
/** How long an update waits for a lock unless told (ms): longer than a lease, so it outwaits a holder that died. */
export const DEFAULT_LOCK_WAIT_MS = 70_000;

/**
 * `options` with the defaults filled in, for a store's constructor: a bound that
 * is not a whole number of ms above 0 is a mistake in the caller's code (a
 * `RangeError` naming `owner`'s option), never a lock that never expires.
 */
export function leaseBounds(options: LeaseOptions, owner: string): Required<LeaseOptions> {
  const bound = (value: number | undefined, fallback: number, name: string) => {
    if (value === undefined) return fallback;
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new RangeError(`${owner}.${name} must be a whole number of ms above 0 (got ${value})`);
    }
    return value;
  };
  return {
    leaseMs: bound(options.leaseMs, DEFAULT_LEASE_MS, 'leaseMs'),
    lockWaitMs: bound(options.lockWaitMs, DEFAULT_LOCK_WAIT_MS, 'lockWaitMs'),
  };
}
