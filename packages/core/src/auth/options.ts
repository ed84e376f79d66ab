import type { AddressClass } from '../util/address-class.js';
import type { DpopOptions } from './dpop.js';
import type { Grant } from './grants/grant.js';
import type { ClientCredentials } from './registered-client.js';
import type { OAuthStore } from './store.js';

/** Client metadata sent with Dynamic Client Registration (RFC 7591 §2); `redirect_uris` is added. */
export interface ClientMetadata {
  /** The name an authorization server shows the user. */
  readonly client_name?: string;
  /** 2026-07-28 (MUST send): `native` for desktop, CLI and localhost apps, `web` for remote browser apps. Default: by the redirect URI. */
  readonly application_type?: 'web' | 'native';
  readonly [field: string]: unknown;
}

/**
 * Shows the authorization URL to the user (popup, new tab, system browser) and
 * resolves with the callback URL the authorization server redirected to. Rejecting
 * means the user gave up; the request that needed the token fails with that error.
 */
export type AuthorizeHandler = (authorizationUrl: URL) => Promise<string | URL>;

/**
 * What a URL the client is about to fetch (or open, for `authorization`) is for.
 * Most come from the server: PRM's `resource_metadata` and `authorization_servers`,
 * and the endpoints in the authorization server's metadata.
 */
export type OAuthUrlPurpose =
  | 'resource_metadata'
  | 'authorization_server_metadata'
  | 'registration'
  | 'token'
  | 'authorization';

/** What the built-in rule makes of a URL `AllowUrl` is asked about. */
export interface AllowUrlContext {
  /**
   * Set when the built-in rule refuses the URL: the class of address its host
   * names (`loopback`, `private` or `link-local`), one the MCP server is not on.
   * Undefined when the rule has no objection.
   */
  readonly refused: AddressClass | undefined;
}

/**
 * Decides whether OAuth may fetch or open a URL a server chose. It is asked
 * only about https URLs (plain http only with an MCP server on loopback), a
 * rule it cannot change. Its answer is final: false refuses any URL (the flow fails with
 * `url_refused`), and true allows one the built-in rule refuses, a literal
 * address of this machine, a private network or the link that the MCP server
 * is not on (`context.refused` says which; without `allowUrl` such a URL fails
 * with `insecure_endpoint`). So a hook that returns true for everything turns
 * that rule off: return true for a refused URL only when the app means to
 * reach it (`return !context.refused || url.host === 'auth.internal:8443'`).
 *
 * Host names are not resolved, since browsers and Workers cannot: a public
 * name whose DNS answers with an internal address passes the built-in rule.
 * An app on Node that needs more resolves the name here (`dns.promises.lookup`
 * with `all: true`, refusing if any address is internal), or sends OAuth
 * through an egress proxy (`fetch`) that refuses internal destinations; the
 * proxy also covers a name that resolves differently when fetched.
 */
export type AllowUrl = (url: URL, purpose: OAuthUrlPurpose, context: AllowUrlContext) => boolean | Promise<boolean>;

/** Default of OAuthOptions.limits.pendingTtl: how long an authorization waits for the user (10 minutes). */
export const DEFAULT_PENDING_TTL_MS = 600_000;

/**
 * Bounds on the HTTP requests OAuth makes (metadata, registration, token) and on
 * what it keeps. Every authorization and resource server may be hostile: each
 * bound turns a flood into a `LimitError` and a stall into an AuthError.
 */
export interface OAuthLimits {
  /** Largest response body read, decoded bytes (default 262,144: 256 KiB); more fails with a `LimitError`. */
  readonly maxResponseBytes?: number;
  /**
   * Longest one attempt of a request may take, body included, in ms (default
   * 30,000); longer is `request_timeout`. 0 or `Infinity`: none; above
   * 2^31-1 (about 24.8 days), 2^31-1.
   */
  readonly timeout?: number;
  /**
   * Extra attempts for a metadata GET that failed on the network or with HTTP 408,
   * 409, 425, 429, 500, 502, 503 or 504 (default 1), 200 ms apart, each with its
   * own `timeout`. A whole number, 0 or more: anything else (`Infinity`, -1, 1.5)
   * makes the OAuthProvider constructor throw a RangeError. A timeout, a
   * redirect or a body too large ends it at once; POSTs (registration, token)
   * are never retried.
   */
  readonly retries?: number;
  /**
   * How long a pending authorization (PKCE verifier, state) waits for the user's
   * return, in ms (default 600,000: 10 minutes); an older callback is `invalid_state`.
   */
  readonly pendingTtl?: number;
}

/** Options of an OAuthProvider; every field is optional, defaults suit a public client with a redirect handler. */
export interface OAuthOptions {
  /** Where clients, tokens and pending authorizations are kept (default: memory). */
  readonly store?: OAuthStore;
  /** Used for metadata, registration and token requests (default `globalThis.fetch`, read at call time). */
  readonly fetch?: typeof fetch;
  /**
   * The redirect URI registered with the authorization server: https, or http on
   * localhost or a loopback address (MCP authorization requires one or the
   * other); anything else makes the OAuthProvider constructor throw a TypeError.
   * The same holds for `clientMetadata.redirect_uris`.
   */
  readonly redirectUri?: string;
  /** The redirect handler; without it, a flow that needs the user fails with `no_redirect_handler`. */
  readonly authorize?: AuthorizeHandler;
  /** This client's Client ID Metadata Document URL (https, with a path): used where the AS supports CIMD (2025-11-25+). */
  readonly clientMetadataUrl?: string;
  /** Metadata for Dynamic Client Registration. */
  readonly clientMetadata?: ClientMetadata;
  /** Pre-registered clients, keyed by authorization server issuer (never used with another issuer). */
  readonly clients?: Readonly<Record<string, ClientCredentials>>;
  /** Scope to ask for when the server's challenge names none (before PRM `scopes_supported`). */
  readonly scope?: string;
  /** How tokens are obtained (default: authorization code with PKCE). */
  readonly grant?: Grant;
  /**
   * DPoP-bound tokens (RFC 9449; extension `io.modelcontextprotocol/auth/dpop`).
   * Default: only when the MCP server asks for them (a `DPoP` challenge without a
   * Bearer one, or PRM `dpop_bound_access_tokens_required`). `true` or an object:
   * also with every authorization server that advertises our algorithm
   * (`dpop_signing_alg_values_supported`). `false`: never.
   */
  readonly dpop?: boolean | DpopOptions;
  /**
   * Authorizations (and refreshes) in a row without a successful response from one server before giving up
   * with a `LimitError` (default 3).
   */
  readonly maxAttempts?: number;
  /** Size, time and retry bounds of OAuth's own requests, and the pending-authorization lifetime. */
  readonly limits?: OAuthLimits;
  /**
   * The final word on every URL OAuth fetches or opens (see `AllowUrl`). The
   * built-in rule: https only, plain http only while the MCP server itself is
   * on this machine (loopback), and no literal address of this machine, a
   * private network (`10.0.0.0/8`, `172.16.0.0/12`, `192.168.0.0/16`,
   * `100.64.0.0/10`, `fc00::/7`) or the link (`169.254.0.0/16`, `fe80::/10`),
   * in any spelling, unless the MCP server's own URL names that class of
   * address. Host names are not resolved. Redirects are never followed.
   */
  readonly allowUrl?: AllowUrl;
}
