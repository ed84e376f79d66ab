import type { OAuthStore } from '../auth/store.js';
import { LocalStorageStore, type LocalStorageStoreOptions } from './local-storage-store.js';

/** Options of `LocalStorageOAuthStore`: those of `LocalStorageStore`, with the prefix defaulting to `'mcp-oauth:'`. */
export interface LocalStorageOAuthStoreOptions extends LocalStorageStoreOptions {
  /** Put before every key, so the provider's entries stay apart from the app's own. Default `'mcp-oauth:'`. */
  prefix?: string;
}

/**
 * An `OAuthStore` over the browser's Web Storage, so an authorization survives a reload: the full-page
 * redirect flow leaves the page with the PKCE verifier, state and issuer saved, and the page the user comes
 * back to finds them here. It is a `LocalStorageStore` under the prefix `'mcp-oauth:'`, so the provider
 * refreshes tokens inside its Web Lock and two tabs never spend one refresh token twice. Every script of
 * the origin can read Web Storage, so an XSS bug leaks the refresh token: keep a strict Content Security
 * Policy, or pass `sessionStorage`.
 *
 * An entry that is not valid JSON reads as not stored. A storage that refuses a write (its quota is spent,
 * or the browser disabled it) rejects with `AuthError('store_failed')`, and the entry keeps its old value.
 */
export class LocalStorageOAuthStore extends LocalStorageStore implements OAuthStore {
  /** `prefix` keeps these keys apart from the app's own; `storage` defaults to `localStorage`. */
  constructor(options: LocalStorageOAuthStoreOptions = {}) {
    super({ ...options, prefix: options.prefix ?? 'mcp-oauth:' });
  }
}
