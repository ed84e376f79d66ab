import { encodeBase64url } from '../../util/base64.js';
import { type LeaseOptions, leaseBounds } from '../lease.js';
import type { Store } from '../store.js';
import { decodeStoreValue, encodeStoreValue } from '../store-json.js';
import { queuedUpdate } from './queued-update.js';

/** The longest key Workers KV takes, in UTF-8 bytes. */
const MAX_KEY_BYTES = 512;

/**
 * The part of a Workers KV namespace (an `env` binding) the store uses.
 * Cloudflare's `KVNamespace` fits it, so core needs no Workers types.
 */
export interface KvNamespaceLike {
  /** The text under `key`, or null. */
  get(key: string): Promise<string | null>;
  /** Stores `value` under `key`. */
  put(key: string, value: string): Promise<void>;
  /** Removes `key`. */
  delete(key: string): Promise<void>;
}

/**
 * Options of a {@link KvStore}. `lockWaitMs`: how long an `update` waits for
 * this isolate's earlier updates of its key (default 70 s, `DEFAULT_LOCK_WAIT_MS`),
 * then fails with a `StoreError` (`lock_timeout`) without running `change`.
 */
export type KvStoreOptions = Pick<LeaseOptions, 'lockWaitMs'>;

/**
 * A store in a Workers KV namespace, for server configs: values a user changes
 * rarely and every location may read. KV is eventually consistent (a write can
 * take a minute or more to be seen in another location) and has no lock, so its
 * `update` excludes only this isolate's own updates of the key (`atomic` is
 * false). Never keep sessions or OAuth tokens here: two invocations refreshing
 * at once would each spend the same refresh token, and the authorization server
 * refuses the second. Keep those in a {@link DurableObjectStore}.
 *
 * Values are stored as JSON text; text that is not JSON (written by someone
 * else) is a `StoreError` (`invalid_value`) until the key is deleted. A key KV would refuse (empty, `.`, `..`, longer than
 * 512 bytes) is kept under `~` and its SHA-256 instead, as is one starting with `~`.
 */
export class KvStore implements Store {
  /** `update` does not exclude other isolates or locations. */
  readonly atomic = false;
  readonly #namespace: KvNamespaceLike;
  readonly #lockWaitMs: number;

  /** A store over `namespace`, a KV binding of `env`. */
  constructor(namespace: KvNamespaceLike, options: KvStoreOptions = {}) {
    this.#namespace = namespace;
    this.#lockWaitMs = leaseBounds(options, 'KvStoreOptions').lockWaitMs;
  }

  /** The value under `key`, or undefined; text that is not JSON (written by someone else) is a `StoreError` (`invalid_value`). */
  async get(key: string): Promise<unknown> {
    const text = await this.#namespace.get(await kvKey(key));
    return text === null ? undefined : decodeStoreValue(key, text);
  }

  /** Stores `value` as JSON under `key`; undefined deletes it; a value JSON cannot hold is a `StoreError` (`invalid_value`). */
  async set(key: string, value: unknown): Promise<void> {
    if (value === undefined) await this.#namespace.delete(await kvKey(key));
    else await this.#namespace.put(await kvKey(key), encodeStoreValue(key, value));
  }

  /** Removes `key`. */
  async delete(key: string): Promise<void> {
    await this.#namespace.delete(await kvKey(key));
  }

  /** Runs `change` on the value under `key` after this isolate's earlier updates of `key`, and stores its result; other isolates may interleave. */
  update<T>(key: string, change: (current: unknown) => T | Promise<T>): Promise<T> {
    return queuedUpdate(this, this.#namespace, this.#lockWaitMs, key, change);
  }
}

/**
 * The KV key for `key`: itself when KV takes it, else `~` and the base64url of
 * its SHA-256. Keys starting with `~` are hashed too, so no key can stand for
 * another's hash.
 */
async function kvKey(key: string): Promise<string> {
  const bytes = new TextEncoder().encode(key);
  const fits = bytes.length > 0 && bytes.length <= MAX_KEY_BYTES && key !== '.' && key !== '..';
  if (fits && !key.startsWith('~')) return key;
  return `~${encodeBase64url(await crypto.subtle.digest('SHA-256', bytes))}`;
}
