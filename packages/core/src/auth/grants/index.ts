import { AuthError } from '../../errors/auth-error.js';
import type { OAuthOptions } from '../options.js';
import type { ClientCredentials } from '../registered-client.js';
import { authorizationCodeGrant } from './authorization-code.js';
import { clientCredentialsGrant } from './client-credentials.js';
import type { Grant } from './grant.js';
import type { GrantHandler } from './grant-handler.js';
import { jwtBearerGrant } from './jwt-bearer.js';
import { tokenExchangeGrant } from './token-exchange.js';

type Handlers = { readonly [K in Grant['type']]?: GrantHandler<Extract<Grant, { type: K }>> };

/** The grant handlers, by grant type: a new grant is one file beside this one and one line here. */
const HANDLERS: Handlers = {
  authorization_code: authorizationCodeGrant,
  client_credentials: clientCredentialsGrant,
  jwt_bearer: jwtBearerGrant,
  token_exchange: tokenExchangeGrant,
};

/** The handler of `grant`, or an AuthError naming a grant this build does not handle. */
export function handlerFor(grant: Grant): GrantHandler {
  const handler = HANDLERS[grant.type] as GrantHandler | undefined;
  if (!handler) throw new AuthError('unsupported_grant', `the ${grant.type} grant is not supported`);
  return handler;
}

/** Whether a machine grant may send its credentials to `issuer` (undefined: it names no issuer at all). */
function pinnedTo(grant: Exclude<Grant, { type: 'authorization_code' }>, issuer: string): boolean | undefined {
  const pinned: unknown = grant.issuer;
  if (typeof pinned === 'string') return pinned === issuer;
  if (Array.isArray(pinned)) return pinned.includes(issuer);
  if (typeof pinned === 'function') return pinned(issuer) === true;
  return undefined;
}

/**
 * Refuses, before anything is sent to it, an authorization server a machine
 * grant is not pinned to: its client secret, private-key assertion or workload
 * JWT go only where the app said (the server's choice of AS is not trusted).
 */
export function assertIssuerAllowed(grant: Grant, issuer: string): void {
  if (grant.type === 'authorization_code') return;
  const allowed = pinnedTo(grant, issuer);
  if (allowed === undefined) {
    throw new AuthError(
      'issuer_required',
      `the ${grant.type} grant needs an issuer: set grant.issuer to the authorization server(s) its credentials may go to (the server names ${issuer})`,
    );
  }
  if (!allowed) {
    throw new AuthError(
      'issuer_mismatch',
      `the ${grant.type} grant is not configured for the authorization server ${issuer} that the server names`,
    );
  }
}

/**
 * The authorization server to use among those the PRM lists (RFC 9728 §2): the
 * first, or for a machine grant the first it is pinned to (so a server listing
 * several still works; none pinned fails in assertIssuerAllowed).
 */
export function chooseIssuer(grant: Grant, servers: readonly string[]): string {
  const first = servers[0] as string;
  if (grant.type === 'authorization_code') return first;
  return servers.find((issuer) => pinnedTo(grant, issuer) === true) ?? first;
}

/**
 * The client a grant brings for this AS: `clients[issuer]` wins (undefined here,
 * so registration finds it), then the grant's own `client`. A grant not pinned
 * to this issuer is refused before anything is sent.
 */
export function grantClient(grant: Grant, options: OAuthOptions, issuer: string): ClientCredentials | undefined {
  if (grant.type === 'authorization_code') return undefined;
  assertIssuerAllowed(grant, issuer);
  return options.clients?.[issuer] ? undefined : grant.client;
}
