import * as v from 'valibot';
import { AuthError } from '../errors/auth-error.js';
import { AuthorizationServerMetadataSchema } from './schemas.js';
import { type OAuthStore, storeKeys } from './store.js';
import type { StoredKeys } from './stored-keys.js';

/**
 * The per-request record saved before the user leaves for the authorization
 * server (`pending:<state>`): the PKCE verifier and the validated issuer side by
 * side (2026-07-28 MUST), and what the code redemption needs after a page reload.
 * Only the client's id: its secret or private key never goes into a record that
 * may sit in localStorage; the client is looked up again when the user returns.
 */
export const PendingAuthorizationSchema = v.object({
  state: v.string(),
  verifier: v.string(),
  issuer: v.string(),
  redirectUri: v.string(),
  resource: v.string(),
  scope: v.optional(v.string()),
  serverUrl: v.string(),
  metadata: AuthorizationServerMetadataSchema,
  clientId: v.string(),
  /** When the user's return stops being accepted (ms since the epoch). */
  expiresAt: v.number(),
});
export type PendingAuthorization = v.InferOutput<typeof PendingAuthorizationSchema>;

/**
 * Pending authorizations in the store: saved before the user leaves, deleted
 * when used, when found expired (each new one sweeps the old), or on sign-out.
 */
export class PendingAuthorizations {
  readonly #store: OAuthStore;
  readonly #keys: StoredKeys;

  constructor(store: OAuthStore, keys: StoredKeys) {
    this.#store = store;
    this.#keys = keys;
  }

  /** Saves a record, first deleting those that expired unused (the user never came back). */
  async save(pending: PendingAuthorization): Promise<void> {
    const now = Date.now();
    const stale: string[] = [];
    for (const key of await this.#keys.list()) {
      if (!key.startsWith(storeKeys.pending(''))) continue;
      const parsed = v.safeParse(PendingAuthorizationSchema, await this.#store.get(key));
      if (!parsed.success || parsed.output.expiresAt <= now) stale.push(key);
    }
    if (stale.length > 0) await this.#keys.delete(...stale);
    await this.#keys.set(storeKeys.pending(pending.state), pending);
  }

  /** Takes the record of `state` out of the store: once only, and only before it expires. */
  async take(state: string): Promise<PendingAuthorization> {
    const key = storeKeys.pending(state);
    const parsed = v.safeParse(PendingAuthorizationSchema, await this.#store.get(key));
    await this.#keys.delete(key);
    if (!parsed.success)
      throw new AuthError('invalid_state', 'no pending authorization has the state of this response');
    if (parsed.output.expiresAt <= Date.now())
      throw new AuthError('invalid_state', 'the pending authorization with the state of this response has expired');
    return parsed.output;
  }

  /** Deletes the record of `state` (the flow ended here, in this page). */
  discard(state: string): Promise<void> {
    return this.#keys.delete(storeKeys.pending(state));
  }
}
