import type { OAuthStore } from '../auth/store.js';
import { AuthError } from '../errors/auth-error.js';

/** Options of `LocalStorageOAuthStore`. */
export interface LocalStorageOAuthStoreOptions {
  /** Put before every key, so the provider's entries stay apart from the app's own. Default `'mcp-oauth:'`. */
  prefix?: string;
  /**
   * The Web Storage to keep the entries in. Default `globalThis.localStorage`, read at each call.
   * Pass `sessionStorage` to forget the tokens with the tab.
   */
  storage?: Storage;
}

/**
 * An `OAuthStore` over the browser's Web Storage, so an authorization survives a reload: the full-page
 * redirect flow leaves the page with the PKCE verifier, state and issuer saved, and the page the user comes
 * back to finds them here. Every script of the origin can read Web Storage, so an XSS bug leaks the refresh
 * token: keep a strict Content Security Policy, or pass `sessionStorage`.
 *
 * An entry that is not valid JSON reads as not stored. A storage that refuses a write (its quota is spent,
 * or the browser disabled it) rejects with `AuthError('store_failed')`, and the entry keeps its old value.
 */
export class LocalStorageOAuthStore implements OAuthStore {
  readonly #prefix: string;
  readonly #storage: Storage | undefined;

  /** `prefix` keeps these keys apart from the app's own; `storage` defaults to `localStorage`. */
  constructor(options: LocalStorageOAuthStoreOptions = {}) {
    this.#prefix = options.prefix ?? 'mcp-oauth:';
    this.#storage = options.storage;
  }

  /** The value stored under `key`, or undefined when there is none or it is not JSON. */
  async get(key: string): Promise<unknown> {
    const text = this.#use('read', key, (storage, name) => storage.getItem(name));
    if (text === null) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      // Damaged, or written by someone else: the provider treats a missing value as "not stored".
      return undefined;
    }
  }

  /** Stores `value` as JSON under `key`; undefined removes it, so it reads back as undefined. */
  async set(key: string, value: unknown): Promise<void> {
    const text = JSON.stringify(value);
    if (text === undefined) return this.delete(key);
    this.#use('write', key, (storage, name) => storage.setItem(name, text));
  }

  /** Removes `key`. */
  async delete(key: string): Promise<void> {
    this.#use('delete', key, (storage, name) => storage.removeItem(name));
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
