import type { AuthorizationServerMetadata, ProtectedResourceMetadata } from './schemas.js';

/** Space-separated scope strings merged, each scope once, first-seen order (RFC 6749 §3.3). */
export function unionScopes(...scopes: ReadonlyArray<string | undefined>): string | undefined {
  const all = new Set(scopes.flatMap((scope) => (scope ? scope.split(/\s+/).filter(Boolean) : [])));
  return all.size > 0 ? [...all].join(' ') : undefined;
}

/**
 * The scope of an authorization request (MCP 2025-11-25 "Scope Selection
 * Strategy"): the challenge's `scope` (authoritative for the current operation),
 * else the app's configured scope, else every PRM `scopes_supported`, else none.
 * Step-up keeps what was asked before (the union, 2026-07-28), and `offline_access`
 * is added when the AS lists it (2026-07-28 MAY), so a refresh token can come back.
 */
export function selectScope(input: {
  readonly challenge: string | undefined;
  readonly configured: string | undefined;
  readonly previous: string | undefined;
  readonly resource: ProtectedResourceMetadata | undefined;
  readonly server: AuthorizationServerMetadata;
}): string | undefined {
  const base = input.challenge ?? input.configured ?? input.resource?.scopes_supported?.join(' ');
  const offline = input.server.scopes_supported?.includes('offline_access') ? 'offline_access' : undefined;
  const chosen = unionScopes(input.previous, base);
  return chosen === undefined ? undefined : unionScopes(chosen, offline);
}
