import type { Store } from '../connections/store.js';
import { StoreError } from '../connections/store-error.js';
import { encodeStoreValue } from '../connections/store-json.js';
import { KeyQueue } from '../connections/stores/key-queue.js';
import { AuthError } from '../errors/auth-error.js';
import { MAX_TIMER, timerDelay } from '../util/timers.js';
import { catchUp, recordWrite } from './write-handoff.js';

/** How long an `update` waits for its key's lock by default: past a slow token request (30 s by default) with room to spare. */
const DEFAULT_LOCK_WAIT_MS = 60_000;

/** Before every lock name, so the store's locks never meet the app's own in the origin's one namespace. */
const LOCK_PREFIX = '@mcp/core store ';

/** Options of `LocalStorageStore`. */
export interface LocalStorageStoreOptions {
  /**
   * Put before every key in the storage. Default `''`: the connection layer
   * already keeps its keys under `mcp:`.
   */
  prefix?: string;
  /**
   * The Web Storage to keep the entries in. Default `globalThis.localStorage`, read at each call.
   * Pass `sessionStorage` to forget everything with the tab.
   */
  storage?: Storage;
  /**
   * The Web Locks that make `update` exclusive across the origin's tabs and
   * workers. Default `globalThis.navigator.locks`, read when the store is made.
   * `false`, or a browser without Web Locks (an old one, or a page that is not
   * a secure context): `update` excludes only this store's own updates, and
   * `atomic` is false.
   */
  locks?: LockManager | false;
  /**
   * How long an `update` waits for its turn, in ms, before it rejects with a
   * `StoreError` (`lock_timeout`) and never runs its change. Default
   * 60,000: past a slow token refresh. (Redis and file stores wait longer, to
   * outwait a dead holder's lease; a Web Lock has none to outwait.) A whole number from 1 to 2^31-1; anything else makes the
   * constructor throw a RangeError. A tab whose update never finishes holds
   * its key until it closes; this bound keeps the other tabs from waiting on
   * it forever.
   */
  lockWaitMs?: number;
}

/**
 * A `Store` over the browser's Web Storage, so servers, sessions and tokens
 * survive a reload. Values are kept as JSON; an entry that is not valid JSON
 * (damaged, or written by someone else) reads as not stored. A storage that
 * refuses a write (its quota is spent, or the browser disabled it) rejects with
 * `AuthError('store_failed')`, and the entry keeps its old value.
 *
 * `update` holds a Web Lock named for the key while it reads, changes and
 * writes, so two tabs of one origin never run the change of one key at once: a
 * token refresh inside it reaches the authorization server once. The browser
 * releases the lock of a tab that closes or crashes; a live tab whose change
 * never settles is what `lockWaitMs` bounds. Without Web Locks, `atomic` is false.
 *
 * Every script of the origin can read Web Storage, so an XSS bug leaks what is
 * stored, refresh tokens included: keep a strict Content Security Policy.
 */
export class LocalStorageStore implements Store {
  /** False when there are no Web Locks: `update` then excludes only this store's own updates. */
  readonly atomic: boolean;
  readonly #prefix: string;
  readonly #storage: Storage | undefined;
  readonly #locks: LockManager | undefined;
  readonly #lockWaitMs: number;
  /** Orders this store's own updates when there are no Web Locks. */
  readonly #queue = new KeyQueue();

  /** `prefix` keeps these keys apart from the app's own; `storage` defaults to `localStorage`. */
  constructor(options: LocalStorageStoreOptions = {}) {
    const lockWaitMs = options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS;
    if (!Number.isInteger(lockWaitMs) || lockWaitMs < 1 || lockWaitMs > MAX_TIMER) {
      throw new RangeError(
        `LocalStorageStore lockWaitMs must be a whole number of ms from 1 to 2^31-1 (got ${lockWaitMs})`,
      );
    }
    this.#prefix = options.prefix ?? '';
    this.#storage = options.storage;
    this.#locks = options.locks === false ? undefined : (options.locks ?? globalThis.navigator?.locks);
    this.#lockWaitMs = lockWaitMs;
    this.atomic = this.#locks !== undefined;
  }

  /** The value stored under `key`, or undefined when there is none or it is not JSON. */
  async get(key: string): Promise<unknown> {
    const text = this.#use('read', key, (storage, name) => storage.getItem(name));
    if (text === null) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      // Damaged, or written by someone else: every reader treats a missing value as "not stored".
      return undefined;
    }
  }

  /**
   * Stores `value` as JSON under `key`; undefined removes it, so it reads back as
   * undefined. A value JSON cannot hold (a bigint, a cycle, a function) is a
   * `StoreError` (`invalid_value`).
   */
  async set(key: string, value: unknown): Promise<void> {
    if (value === undefined) return this.delete(key);
    const text = encodeStoreValue(key, value);
    this.#use('write', key, (storage, name) => storage.setItem(name, text));
  }

  /** Removes `key`. */
  async delete(key: string): Promise<void> {
    this.#use('delete', key, (storage, name) => storage.removeItem(name));
  }

  /**
   * Reads `key`, runs `change` on it once and stores what it returns (undefined
   * deletes the key), holding the key's Web Lock throughout: no other update of
   * the key runs meanwhile in any tab or worker of the origin. Waits at most
   * `lockWaitMs` for the lock, then rejects with a `StoreError` (`lock_timeout`) without running
   * `change`.
   */
  async update<T>(key: string, change: (current: unknown) => T | Promise<T>): Promise<T> {
    const wait = new AbortController();
    const timer = setTimeout(() => {
      wait.abort(
        new StoreError('lock_timeout', key, `waited ${this.#lockWaitMs} ms (lockWaitMs) for the lock on ${key}`),
      );
    }, timerDelay(this.#lockWaitMs));
    const apply = async () => {
      clearTimeout(timer);
      const next = await change(await this.get(key));
      await this.set(key, next);
      return next;
    };
    const locks = this.#locks;
    if (locks === undefined) return this.#queue.run(key, apply, wait.signal).finally(() => clearTimeout(timer));
    let granted = false;
    try {
      return await locks.request(LOCK_PREFIX + this.#prefix + key, { signal: wait.signal }, async () => {
        granted = true;
        clearTimeout(timer);
        if (!this.#shared()) return apply();
        const name = this.#prefix + key;
        const read = () => this.#use('read', key, (storage, entry) => storage.getItem(entry));
        const seq = await catchUp(locks, name, read);
        const next = await apply();
        await recordWrite(locks, name, seq + 1, read());
        return next;
      });
    } catch (error) {
      if (granted) throw error;
      if (wait.signal.aborted) throw wait.signal.reason;
      // An opaque origin (a sandboxed frame) has Web Locks that refuse every request.
      throw new AuthError('store_failed', `could not take the Web Lock for ${key}: ${String(error)}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Whether the storage is the origin's localStorage, which Chromium copies into
   * each tab's process: only then can another tab's write be late (see
   * write-handoff.ts). sessionStorage belongs to one tab, and a storage object
   * the app made lives in one page.
   */
  #shared(): boolean {
    try {
      return (this.#storage ?? globalThis.localStorage) === globalThis.localStorage;
    } catch {
      // A browser that refuses Web Storage throws on the getter: the read that follows says so.
      return false;
    }
  }

  /** Runs one storage operation; a storage that is missing or throws becomes one typed error. */
  #use<T>(action: string, key: string, operation: (storage: Storage, name: string) => T): T {
    try {
      // Read at each call: a page may swap or stub localStorage after the store was made.
      const storage = this.#storage ?? globalThis.localStorage;
      if (storage === undefined) throw new TypeError('no Web Storage here; pass one as `storage`');
      return operation(storage, this.#prefix + key);
    } catch (cause) {
      // The key names what the entry is (`tokens:<issuer>|<resource>`), never a secret; String() of a
      // DOMException keeps its name (QuotaExceededError, SecurityError).
      throw new AuthError('store_failed', `could not ${action} ${key} in Web Storage: ${String(cause)}`, { cause });
    }
  }
}
