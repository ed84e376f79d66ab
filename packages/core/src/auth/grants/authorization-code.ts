import { AuthError } from '../../errors/auth-error.js';
import { authorizationUrl, codeFromCallback } from '../authorization-code.js';
import { assertPkceSupport } from '../discovery.js';
import { DEFAULT_PENDING_TTL_MS, type PendingAuthorization } from '../pending-authorizations.js';
import { createPkce } from '../pkce.js';
import { randomToken } from '../random.js';
import type { TokenResponse } from '../schemas.js';
import type { GrantContext, GrantHandler } from './grant-handler.js';

/** The state an authorization response carries, to find its pending record. */
export function stateOf(callback: URL): string {
  const state = callback.searchParams.get('state');
  if (!state) throw new AuthError('invalid_state', 'the authorization response carries no state');
  return state;
}

/**
 * Checks the authorization response against its record (state, iss, error) and
 * redeems the code: `code`, `redirect_uri`, `code_verifier` and `resource` (RFC
 * 8707, MUST since 2025-06-18) at the token endpoint.
 */
export function redeemCode(
  pending: PendingAuthorization,
  callback: URL,
  requestToken: GrantContext['requestToken'],
): Promise<TokenResponse> {
  const code = codeFromCallback(callback, pending);
  return requestToken({
    grant_type: 'authorization_code',
    code,
    redirect_uri: pending.redirectUri,
    code_verifier: pending.verifier,
    resource: pending.resource,
  });
}

/**
 * Authorization code with PKCE (OAuth 2.1 §4.1): build the URL, hand it to the
 * redirect handler, check the response, redeem the code. A handler that never
 * resolves (full-page redirect) leaves the record for `finishAuthorization`.
 */
export const authorizationCodeGrant: GrantHandler<{ readonly type: 'authorization_code' }> = {
  grantTypes: ['authorization_code', 'refresh_token'],
  interactive: true,

  async obtain(_grant, context): Promise<TokenResponse> {
    const { options, metadata, pending: records } = context;
    const { authorize, redirectUri } = options;
    if (!authorize || !redirectUri) {
      throw new AuthError(
        'no_redirect_handler',
        'authorization needs the user, but no authorize handler and redirectUri are set',
      );
    }
    assertPkceSupport(metadata);
    if (!metadata.authorization_endpoint) {
      throw new AuthError(
        'invalid_metadata',
        `the authorization server ${metadata.issuer} has no authorization_endpoint`,
      );
    }
    const endpoint = await context.http.check(metadata.authorization_endpoint, 'authorization');
    const pkce = await createPkce();
    const pending: PendingAuthorization = {
      state: randomToken(32),
      verifier: pkce.verifier,
      issuer: metadata.issuer,
      redirectUri,
      resource: context.resource,
      ...(context.scope !== undefined && { scope: context.scope }),
      serverUrl: context.serverUrl.href,
      metadata,
      clientId: context.client.client_id,
      expiresAt: Date.now() + (options.limits?.pendingTtl ?? DEFAULT_PENDING_TTL_MS),
    };
    await records.save(pending);
    let leftForTheServer = false;
    try {
      const url = authorizationUrl(endpoint, {
        clientId: context.client.client_id,
        redirectUri,
        codeChallenge: pkce.challenge,
        state: pending.state,
        resource: context.resource,
        scope: context.scope,
      });
      let callback: URL;
      try {
        callback = new URL(await authorize(url));
      } catch (error) {
        leftForTheServer = error instanceof AuthError && error.code === 'redirect_started';
        throw error;
      }
      return await redeemCode(pending, callback, context.requestToken);
    } finally {
      // A page or Worker that navigated away finishes later with finishAuthorization().
      if (!leftForTheServer) await records.discard(pending.state);
    }
  },
};
