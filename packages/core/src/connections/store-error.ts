import { McpError } from '../errors/mcp-error.js';

/**
 * What went wrong with a store:
 * - `invalid_value`: what is stored under `key` is not a value this SDK wrote
 *   (not JSON, or a Redis key of another type), or a value given to `set` is not
 *   plain JSON. Reading it again gives the same error: `delete` the key to start over.
 * - `lock_timeout`: an `update` waited its store's `lockWaitMs` for another
 *   holder of the key's lock, and `change` never ran.
 * - `lease_expired`: `change` ran longer than the store's `leaseMs`, so the lock
 *   may have passed to another instance; what `change` returned was not stored,
 *   so the other holder's work stands.
 * - `untrusted`: a store kept in files found, where a value belongs, something
 *   it cannot trust (a link, another user's file, a file others may write); the
 *   message names the path and the fix. Nothing of it was read.
 */
export class StoreError extends McpError {
  override name = 'StoreError';
  /** Which of the problems above. */
  readonly code: StoreErrorCode;
  /** The key concerned, as the caller named it (before any prefix a store adds). */
  readonly key: string;

  /** `code` says what went wrong with `key`. */
  constructor(code: StoreErrorCode, key: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.key = key;
  }
}

/** The kinds of {@link StoreError}. */
export type StoreErrorCode = 'invalid_value' | 'lock_timeout' | 'lease_expired' | 'untrusted';
