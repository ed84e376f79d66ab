/**
 * An `OAuthStore` (@mcp/core) over the browser's Web Storage, so an
 * authorization survives a page reload: the full-page redirect flow leaves the
 * page with the PKCE verifier, state and issuer saved, and the page the
 * authorization server sends the user back to finds them here.
 *
 * Mind what this means: anything in localStorage is readable by every script
 * of the origin, so an XSS bug leaks the refresh token. Use sessionStorage
 * (pass it as `storage`) to forget tokens with the tab, and keep a strict CSP.
 *
 * @implements {import('@mcp/core').OAuthStore}
 */
export class LocalStorageOAuthStore {
  #prefix;
  #storage;

  /**
   * @param {{ prefix?: string, storage?: Storage }} [options] `prefix` keeps these keys apart from the app's own
   */
  constructor({ prefix = 'mcp-oauth:', storage = globalThis.localStorage } = {}) {
    this.#prefix = prefix;
    this.#storage = storage;
  }

  /** @param {string} key */
  async get(key) {
    const text = this.#storage.getItem(this.#prefix + key);
    if (text === null) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      // Not ours or damaged: the provider treats a missing value as "not stored".
      return undefined;
    }
  }

  /**
   * @param {string} key
   * @param {unknown} value plain JSON (the provider stores nothing else)
   */
  async set(key, value) {
    this.#storage.setItem(this.#prefix + key, JSON.stringify(value));
  }

  /** @param {string} key */
  async delete(key) {
    this.#storage.removeItem(this.#prefix + key);
  }
}
