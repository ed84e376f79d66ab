import { AuthError } from '../../errors/auth-error.js';
import type { ClientCredentials, OAuthOptions } from '../options.js';
import { authorizationCodeGrant } from './authorization-code.js';
import { clientCredentialsGrant } from './client-credentials.js';
import type { Grant, GrantHandler } from './grant.js';
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

/**
 * The client a grant brings for this AS: `clients[issuer]` wins (undefined here,
 * so registration finds it), then the grant's own `client`. A grant pinned to
 * another issuer is refused before anything is sent.
 */
export function grantClient(grant: Grant, options: OAuthOptions, issuer: string): ClientCredentials | undefined {
  if (grant.type === 'authorization_code') return undefined;
  if (grant.issuer !== undefined && grant.issuer !== issuer) {
    throw new AuthError(
      'issuer_mismatch',
      `the ${grant.type} grant is configured for ${grant.issuer}, but the server names the authorization server ${issuer}`,
    );
  }
  return options.clients?.[issuer] ? undefined : grant.client;
}
