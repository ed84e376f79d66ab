import { type LeaseOptions, leaseBounds } from '../lease.js';
import type { Store } from '../store.js';
import { encodeStoreValue } from '../store-json.js';
import { queuedUpdate } from './queued-update.js';

/**
 * The part of a Durable Object's storage (`ctx.storage`) the store uses.
 * Cloudflare's `DurableObjectStorage` fits it, so core needs no Workers types.
 */
export interface DurableObjectStorageLike {
  /** The value under `key`, or undefined. */
  get(key: string): Promise<unknown>;
  /** Stores `value` (structured-cloned) under `key`. */
  put(key: string, value: unknown): Promise<void>;
  /** Removes `key`. */
  delete(key: string): Promise<unknown>;
}

/**
 * Options of a {@link DurableObjectStore}. `lockWaitMs`: how long an `update`
 * waits for the earlier updates of its key in this object (default 70 s,
 * `DEFAULT_LOCK_WAIT_MS`), then fails with a `StoreError` (`lock_timeout`)
 * without running `change`. No lease: an update cannot outlive the object.
 */
export type DurableObjectStoreOptions = Pick<LeaseOptions, 'lockWaitMs'>;

/**
 * A store in a Durable Object's storage: configs, sessions and tokens outlive
 * hibernation, eviction and deploys, and every invocation that reaches the same
 * object sees the same values at once (storage is strongly consistent).
 *
 * `update` is atomic for every invocation that reaches this object, wherever it
 * came from (an object runs in one place at a time), through a queue per key in
 * the object's memory, shared by every store made over the same `ctx.storage`.
 * Storage calls alone do not give that: input gates hold other requests back
 * while a storage call runs, not while the object awaits a subrequest, so while
 * `change` awaits a `fetch` (a token refresh at the authorization server)
 * another request enters and reads the old value. A `transaction()` whose
 * callback awaits the `fetch` does keep others out, but all of them, on every
 * key, for the whole refresh; the queue holds back only updates of the same
 * key. The queue dies with the object, and so does any update waiting in it.
 *
 * Two different objects never exclude each other: keep everything one user's
 * tokens depend on in one object (one object per user, `idFromName(userId)`).
 */
export class DurableObjectStore implements Store {
  readonly #storage: DurableObjectStorageLike;
  readonly #lockWaitMs: number;

  /** A store over `storage`, the object's `ctx.storage`. */
  constructor(storage: DurableObjectStorageLike, options: DurableObjectStoreOptions = {}) {
    this.#storage = storage;
    this.#lockWaitMs = leaseBounds(options, 'DurableObjectStoreOptions').lockWaitMs;
  }

  /** The value under `key`, or undefined. */
  async get(key: string): Promise<unknown> {
    return this.#storage.get(key);
  }

  /**
   * Stores `value` under `key` as its JSON reads back, as every store keeps it
   * (a `Date` becomes its string); undefined deletes it. A value JSON cannot
   * hold is a `StoreError` (`invalid_value`).
   */
  async set(key: string, value: unknown): Promise<void> {
    if (value === undefined) await this.#storage.delete(key);
    else await this.#storage.put(key, JSON.parse(encodeStoreValue(key, value)));
  }

  /** Removes `key`. */
  async delete(key: string): Promise<void> {
    await this.#storage.delete(key);
  }

  /** Runs `change` on the value under `key` once every earlier update of `key` in this object has settled, and stores its result. */
  update<T>(key: string, change: (current: unknown) => T | Promise<T>): Promise<T> {
    return queuedUpdate(this, this.#storage, this.#lockWaitMs, key, change);
  }
}
