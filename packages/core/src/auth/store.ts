/**
 * Where an OAuthProvider keeps what must outlive one request: registered
 * clients, tokens, and pending authorizations (PKCE verifier, state, issuer) while
 * the user is away at the authorization server. Values are plain JSON, so
 * localStorage, a KV namespace or a Durable Object can back it.
 *
 * Keys: `client:<issuer>`, `tokens:<issuer>|<resource>`, `server:<mcp url>` (which
 * issuer and resource an MCP endpoint last used), `pending:<state>` (no secrets,
 * deleted when used, expired or on sign-out) and `keys` (what sign-out deletes).
 */
export interface OAuthStore {
  /** The value stored under `key`, or undefined. */
  get(key: string): Promise<unknown>;
  /** Stores `value` (plain JSON) under `key`, replacing what was there. */
  set(key: string, value: unknown): Promise<void>;
  /** Removes `key`; a key that is not there is no error. */
  delete(key: string): Promise<void>;
}

/** The default store: a Map that lives as long as the provider. */
export class MemoryOAuthStore implements OAuthStore {
  readonly #entries = new Map<string, unknown>();

  /** A copy of the value under `key`, or undefined. */
  async get(key: string): Promise<unknown> {
    return structuredClone(this.#entries.get(key));
  }

  /** Stores a copy of `value` under `key`. */
  async set(key: string, value: unknown): Promise<void> {
    this.#entries.set(key, structuredClone(value));
  }

  /** Removes `key`. */
  async delete(key: string): Promise<void> {
    this.#entries.delete(key);
  }
}

/** Store keys, in one place so every reader and writer agrees. */
export const storeKeys = {
  client: (issuer: string) => `client:${issuer}`,
  tokens: (issuer: string, resource: string) => `tokens:${issuer}|${resource}`,
  server: (url: string) => `server:${url}`,
  pending: (state: string) => `pending:${state}`,
  index: 'keys',
};
