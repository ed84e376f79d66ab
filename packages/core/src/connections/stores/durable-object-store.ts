import type { Store } from '../store.js';
import { checkedMaxWait, queuedUpdate } from './key-queue.js';

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

/** Options of a {@link DurableObjectStore}. */
export interface DurableObjectStoreOptions {
  /**
   * How long, in ms, an `update` waits for the earlier updates of its key before
   * it rejects with a `LimitError` naming `maxWait` (default 60,000; Infinity for
   * no bound). Its `change` then never runs.
   */
  readonly maxWait?: number;
}

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
  readonly #maxWait: number;

  /** A store over `storage`, the object's `ctx.storage`. */
  constructor(storage: DurableObjectStorageLike, options: DurableObjectStoreOptions = {}) {
    this.#storage = storage;
    this.#maxWait = checkedMaxWait(options.maxWait, 'DurableObjectStoreOptions.maxWait');
  }

  /** The value under `key`, or undefined. */
  async get(key: string): Promise<unknown> {
    return this.#storage.get(key);
  }

  /** Stores `value` under `key`; undefined deletes it. */
  async set(key: string, value: unknown): Promise<void> {
    if (value === undefined) await this.#storage.delete(key);
    else await this.#storage.put(key, value);
  }

  /** Removes `key`. */
  async delete(key: string): Promise<void> {
    await this.#storage.delete(key);
  }

  /** Runs `change` on the value under `key` once every earlier update of `key` in this object has settled, and stores its result. */
  update<T>(key: string, change: (current: unknown) => T | Promise<T>): Promise<T> {
    return queuedUpdate(this, this.#storage, this.#maxWait, key, change);
  }
}
