import { MemoryStore } from '../connections/stores/memory-store.js';

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
  /**
   * Optional, with `Store.update`'s meaning (so every `Store` of
   * `@mcp/core/connections` is an OAuthStore): reads `key`, runs `change` on it
   * exactly once and stores what it returns (undefined deletes the key), while no
   * other update of `key` runs anywhere the store is shared. When present, the
   * provider refreshes tokens inside it: two tabs, Workers or processes sharing
   * the store then send one refresh, and the others take the rotated tokens
   * instead of spending a refresh token the authorization server no longer takes.
   * It registers a client (Dynamic Client Registration) inside it too, so
   * instances signing in at once register one client, whose tokens all of them
   * can refresh.
   */
  update?<T>(key: string, change: (current: unknown) => T | Promise<T>): Promise<T>;
}

/**
 * The default store: entries in memory, for as long as the provider lives. Its
 * `update` excludes the updates of this instance only (there is nothing else
 * sharing it).
 */
export class MemoryOAuthStore extends MemoryStore implements OAuthStore {}

/** Store keys, in one place so every reader and writer agrees. */
export const storeKeys = {
  client: (issuer: string) => `client:${issuer}`,
  tokens: (issuer: string, resource: string) => `tokens:${issuer}|${resource}`,
  server: (url: string) => `server:${url}`,
  pending: (state: string) => `pending:${state}`,
  index: 'keys',
};
