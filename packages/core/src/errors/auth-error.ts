import { McpError } from './mcp-error.js';

/**
 * Why authorization failed. Each names one thing a user or developer can act on;
 * extension grants (client credentials, JWT bearer, token exchange, DPoP) add theirs.
 */
export type AuthErrorCode =
  | 'no_redirect_handler'
  | 'authorization_denied'
  | 'invalid_state'
  | 'invalid_callback'
  | 'issuer_mismatch'
  | 'resource_mismatch'
  | 'metadata_not_found'
  | 'invalid_metadata'
  | 'pkce_unsupported'
  | 'insecure_endpoint'
  | 'no_client'
  | 'registration_failed'
  | 'token_request_failed'
  | 'unsupported_grant'
  /** Deprecated, no longer thrown: giving up after `maxAttempts` is a `LimitError` (limit `'maxAttempts'`). */
  | 'step_up_limit'
  | 'dpop_failed'
  /** Deprecated, no longer thrown: a body past `limits.maxResponseBytes` is a `LimitError` naming that limit. */
  | 'response_too_large'
  /** A metadata, registration or token request took longer than `limits.timeout`. */
  | 'request_timeout'
  /** A machine grant without `issuer`: its credentials go only to an authorization server the app named. */
  | 'issuer_required'
  /** The app's `allowUrl` hook refused a URL the server pointed the client at. */
  | 'url_refused'
  /** The browser blocked the authorization popup (open it from a click). */
  | 'popup_blocked'
  /** The user closed the authorization window, or it timed out. */
  | 'authorization_abandoned'
  /**
   * Another tab or instance ran the authorization for this server while this
   * one waited, and stored its tokens: try again, and the request goes with them.
   */
  | 'authorized_elsewhere'
  /** The store could not keep or read the OAuth state (Web Storage full or disabled). */
  | 'store_failed'
  /**
   * Thrown by an `authorize` handler that navigated away to the authorization
   * server (a full-page redirect, a Worker answering 302): the pending record is
   * kept, and `finishAuthorization(callbackUrl)` completes the flow later.
   */
  | 'redirect_started';

/**
 * Authorization (OAuth 2.1, MCP "Authorization") could not get a usable token.
 * Messages never carry tokens, codes, verifiers or client secrets. `oauthError`
 * is the authorization server's own error code when it sent one (RFC 6749 §5.2).
 */
export class AuthError extends McpError {
  override name = 'AuthError';
  /** Why it failed: one thing a user or developer can act on. */
  readonly code: AuthErrorCode;
  /** The authorization server's own error code (RFC 6749 §5.2), when it sent one. */
  readonly oauthError: string | undefined;

  /** Why authorization failed (`code`), with the OAuth error code the server sent, if any. */
  constructor(code: AuthErrorCode, message: string, options?: ErrorOptions & { oauthError?: string }) {
    super(message, options);
    this.code = code;
    this.oauthError = options?.oauthError;
  }
}
