import { AuthError } from '../../errors/auth-error.js';
import type { TokenResponse } from '../schemas.js';
import { chooseAuthMethod } from '../token-endpoint.js';
import type { ClientCredentialsGrant } from './grant.js';
import type { GrantHandler } from './grant-handler.js';

/**
 * Client credentials (OAuth 2.1 §4.2; extension `io.modelcontextprotocol/oauth-client-credentials`):
 * one token request, authenticated as the client, with `resource` (RFC 8707) and
 * the selected scope. Only a confidential client may use it (OAuth 2.1 §4.2).
 */
export const clientCredentialsGrant: GrantHandler<ClientCredentialsGrant> = {
  grantTypes: ['client_credentials'],
  interactive: false,

  obtain(_grant, context): Promise<TokenResponse> {
    const { client, metadata } = context;
    if (chooseAuthMethod(client, metadata) === 'none') {
      throw new AuthError(
        'no_client',
        `the client_credentials grant needs a confidential client, but ${client.client_id} has no secret or private_key`,
      );
    }
    return context.requestToken({
      grant_type: 'client_credentials',
      resource: context.resource,
      ...(context.scope !== undefined && { scope: context.scope }),
    });
  },
};
