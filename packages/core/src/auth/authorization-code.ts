import { AuthError } from '../errors/auth-error.js';
import type { AuthorizationServerMetadata } from './schemas.js';

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
 * Checks an authorization response and returns its code, in this order:
 * `state` (discard a missing or different one), then `iss` (RFC 9207 §2.4, MUST in
 * 2026-07-28: compared as plain strings after form-decoding, never normalised;
 * required when the AS advertises it), then an `error` from the AS (shown only
 * once `iss` checked out), then the code.
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
