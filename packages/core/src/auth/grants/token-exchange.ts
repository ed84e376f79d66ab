import { AuthError } from '../../errors/auth-error.js';
import { discoverAuthorizationServer } from '../discovery.js';
import type { AuthorizationServerMetadata, TokenResponse } from '../schemas.js';
import { requestToken } from '../token-endpoint.js';
import type { IdentityProvider, TokenExchangeGrant } from './grant.js';
import type { GrantContext, GrantHandler } from './grant-handler.js';
import { JWT_BEARER, redeemAssertion } from './jwt-bearer.js';

/** RFC 8693 §2.1 `grant_type`, and the token types of enterprise-managed authorization. */
const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';

/** The IdP's token endpoint: as configured, else from its metadata (RFC 8414, then OpenID Discovery). */
async function identityProviderMetadata(
  idp: IdentityProvider,
  context: GrantContext,
): Promise<AuthorizationServerMetadata> {
  if (idp.tokenEndpoint) {
    return { issuer: idp.issuer ?? new URL(idp.tokenEndpoint).origin, token_endpoint: idp.tokenEndpoint };
  }
  if (!idp.issuer) throw new AuthError('invalid_metadata', 'the identity provider needs an issuer or a tokenEndpoint');
  return discoverAuthorizationServer(context.http, idp.issuer, false);
}

/**
 * Enterprise-managed authorization (extension `io.modelcontextprotocol/enterprise-managed-authorization`):
 * 1. RFC 8693 token exchange at the enterprise IdP: the user's SSO token for an
 *    ID-JAG whose `audience` is the MCP server's AS and `resource` the MCP server;
 * 2. RFC 7523 JWT bearer grant at the MCP server's AS with that ID-JAG, the
 *    client authenticating as registered there.
 */
export const tokenExchangeGrant: GrantHandler<TokenExchangeGrant> = {
  grantTypes: [JWT_BEARER],
  interactive: false,

  async obtain(grant, context): Promise<TokenResponse> {
    const idp = await identityProviderMetadata(grant.idp, context);
    const exchanged = await requestToken(
      { http: context.http, metadata: idp, client: grant.idp.client },
      {
        grant_type: TOKEN_EXCHANGE,
        requested_token_type: ID_JAG,
        audience: context.metadata.issuer,
        resource: context.resource,
        subject_token: await grant.subjectToken(),
        subject_token_type: grant.subjectTokenType ?? ID_TOKEN,
        ...(context.scope !== undefined && { scope: context.scope }),
      },
    );
    const issued = exchanged.issued_token_type;
    if (issued !== undefined && issued !== ID_JAG) {
      throw new AuthError(
        'token_request_failed',
        `the identity provider ${idp.issuer} issued a ${String(issued)}, not an ID-JAG`,
      );
    }
    return redeemAssertion(context, exchanged.access_token);
  },
};
