import { AuthError } from '../../errors/auth-error.js';
import { assertPkceSupport } from '../discovery.js';
import { DEFAULT_PENDING_TTL_MS } from '../options.js';
import type { PendingAuthorization } from '../pending-authorizations.js';
import { createPkce } from '../pkce.js';
import { randomToken } from '../random.js';
import type { AuthorizationServerMetadata, TokenResponse } from '../schemas.js';
import type { GrantContext, GrantHandler } from './grant-handler.js';

/** What goes into an authorization request (OAuth 2.1 §4.1.1, RFC 8707, RFC 7636). */
export interface AuthorizationRequest {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly state: string;
  readonly resource: string;
  readonly scope: string | undefined;
}

/**
 * The URL the user is sent to: `response_type=code`, S256 PKCE, `state`, and the
 * `resource` parameter (MUST since 2025-06-18, even if the AS does not advertise
 * it). Parameters already in the endpoint URL are kept.
 */
export function authorizationUrl(endpoint: URL, request: AuthorizationRequest): URL {
  const url = new URL(endpoint);
  const params = url.searchParams;
  params.set('response_type', 'code');
  params.set('client_id', request.clientId);
  params.set('redirect_uri', request.redirectUri);
  params.set('code_challenge', request.codeChallenge);
  params.set('code_challenge_method', 'S256');
  params.set('state', request.state);
  params.set('resource', request.resource);
  if (request.scope) params.set('scope', request.scope);
  return url;
}

/** What the authorization response was checked against: the per-request record saved before leaving. */
export interface ExpectedCallback {
  readonly state: string;
  readonly issuer: string;
  readonly metadata: Pick<AuthorizationServerMetadata, 'authorization_response_iss_parameter_supported'>;
}

/**
 * Checks an authorization response and returns its code. The `state` comes first:
 * a missing or different one is discarded. Then `iss` (RFC 9207 §2.4, a MUST in
 * 2026-07-28), compared as a plain string after form-decoding and never normalised;
 * it is required when the AS advertises it. Then an `error` from the AS, shown only
 * once `iss` checked out. Then the code.
 */
export function codeFromCallback(callback: URL, expected: ExpectedCallback): string {
  const params = callback.searchParams;
  if (params.get('state') !== expected.state) {
    throw new AuthError('invalid_state', 'the authorization response does not carry the state of this request');
  }
  const iss = params.get('iss');
  if (iss === null) {
    if (expected.metadata.authorization_response_iss_parameter_supported === true) {
      throw new AuthError(
        'issuer_mismatch',
        `the authorization response has no iss, though ${expected.issuer} advertises authorization_response_iss_parameter_supported`,
      );
    }
  } else if (iss !== expected.issuer) {
    throw new AuthError(
      'issuer_mismatch',
      `the authorization response comes from issuer ${JSON.stringify(iss)}, not ${JSON.stringify(expected.issuer)}`,
    );
  }
  const error = params.get('error');
  if (error !== null) {
    const description = params.get('error_description');
    throw new AuthError(
      'authorization_denied',
      `the authorization server refused: ${error}${description ? ` (${description})` : ''}`,
      { oauthError: error },
    );
  }
  const code = params.get('code');
  if (!code) throw new AuthError('invalid_callback', 'the authorization response has no code');
  return code;
}

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
