import type { TokenResponse } from '../schemas.js';
import type { JwtBearerGrant } from './grant.js';
import type { GrantContext, GrantHandler } from './grant-handler.js';

/** RFC 7523 §2.1 `grant_type` of the JWT bearer grant. */
export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * Redeems a JWT (a workload's identity token, or an ID-JAG) at the MCP server's
 * authorization server (RFC 7523 §2.1), with `resource` and the selected scope.
 * The client authenticates as configured (`none` sends just its `client_id`).
 */
export function redeemAssertion(context: GrantContext, assertion: string): Promise<TokenResponse> {
  return context.requestToken({
    grant_type: JWT_BEARER,
    assertion,
    resource: context.resource,
    ...(context.scope !== undefined && { scope: context.scope }),
  });
}

/**
 * JWT bearer grant for workload identity (extension `io.modelcontextprotocol/auth/wif`):
 * the assertion is asked for at each token request, for this AS as audience.
 * A refusal (`invalid_grant`, `invalid_scope`, `unauthorized_client`) surfaces as
 * an AuthError; nothing is retried and no other grant is tried.
 */
export const jwtBearerGrant: GrantHandler<JwtBearerGrant> = {
  grantTypes: [JWT_BEARER],
  interactive: false,

  async obtain(grant, context): Promise<TokenResponse> {
    const { metadata } = context;
    const assertion = await grant.assertion({
      issuer: metadata.issuer,
      tokenEndpoint: metadata.token_endpoint,
      resource: context.resource,
    });
    return redeemAssertion(context, assertion);
  },
};
