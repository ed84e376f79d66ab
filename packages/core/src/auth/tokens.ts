import * as v from 'valibot';
import type { TokenResponse } from './schemas.js';

/**
 * Tokens as stored under `tokens:<issuer>|<resource>`: plain JSON. `scope` is what
 * was asked for (step-up adds to it); `expires_at` (ms since the epoch) is when to
 * stop using the access token: a margin before the AS's own expiry.
 */
export const StoredTokensSchema = v.object({
  access_token: v.string(),
  token_type: v.string(),
  refresh_token: v.optional(v.string()),
  expires_at: v.optional(v.number()),
  scope: v.optional(v.string()),
  client_id: v.string(),
});
export type StoredTokens = v.InferOutput<typeof StoredTokensSchema>;

/** Tokens are renewed this long before the AS's expiry (clock skew, request time), at most half their lifetime. */
export const EXPIRY_MARGIN_MS = 30_000;

/**
 * Stored form of a token response. A refresh response without a refresh token
 * keeps the previous one (RFC 6749 §6); a rotated one replaces it (2026-07-28).
 */
export function toStoredTokens(
  response: TokenResponse,
  context: { readonly clientId: string; readonly requestedScope: string | undefined; readonly previous?: StoredTokens },
  now = Date.now(),
): StoredTokens {
  const refresh = response.refresh_token ?? context.previous?.refresh_token;
  // In ms. A lifetime too long for a date (1e308 s) is no stated lifetime, as a
  // missing one: the token is used until it is refused. Infinity would be stored
  // as null, which no store reads back, and every request would authorize anew.
  const lifetime = Number(response.expires_in) * 1000;
  const scope = context.requestedScope ?? context.previous?.scope;
  return {
    access_token: response.access_token,
    token_type: response.token_type,
    client_id: context.clientId,
    ...(refresh !== undefined && { refresh_token: refresh }),
    ...(Number.isFinite(lifetime) &&
      lifetime > 0 && { expires_at: now + lifetime - Math.min(EXPIRY_MARGIN_MS, lifetime / 2) }),
    ...(scope !== undefined && { scope }),
  };
}

/** Whether a stored token should be refreshed before use. */
export function isExpired(tokens: StoredTokens, now = Date.now()): boolean {
  return tokens.expires_at !== undefined && tokens.expires_at <= now;
}
