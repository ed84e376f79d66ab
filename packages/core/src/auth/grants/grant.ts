import type { ClientCredentials } from '../registered-client.js';

/**
 * How an OAuthProvider obtains tokens. The default, `authorization_code`, sends
 * the user to the authorization server (PKCE, redirect handler). The others are
 * the MCP auth extensions' machine and enterprise grants; their handlers live
 * beside this file, one per grant.
 */
export type Grant =
  | {
      /** The default: the user authorizes in a browser (authorization code with PKCE). */
      readonly type: 'authorization_code';
    }
  | ClientCredentialsGrant
  | JwtBearerGrant
  | TokenExchangeGrant;

/**
 * Who a machine grant authenticates as at the MCP server's authorization server,
 * when `OAuthOptions.clients` has no entry for that issuer (which wins). Without
 * either, the client is registered as usual (CIMD, then DCR).
 */
export interface MachineClient {
  /** This client's credentials (a secret, or a `private_key` for `private_key_jwt`). */
  readonly client?: ClientCredentials;
  /**
   * The authorization server(s), by issuer, these credentials and assertions may
   * go to. Required: the MCP server names its AS (RFC 9728 `authorization_servers`),
   * and a hostile one would name its own to collect the client secret or the
   * workload's JWT. An issuer (compared as a string), a list of them, or a test
   * for one; any other fails with `issuer_mismatch` before anything is sent to
   * it, and a grant without `issuer` fails with `issuer_required`.
   */
  readonly issuer: string | readonly string[] | ((issuer: string) => boolean);
}

/**
 * Client credentials (OAuth 2.1 §4.2; extension `io.modelcontextprotocol/oauth-client-credentials`):
 * a confidential client gets tokens for itself with `client_secret_basic`,
 * `client_secret_post` or `private_key_jwt` authentication. No user, no redirect.
 */
export interface ClientCredentialsGrant extends MachineClient {
  /** Selects this grant. */
  readonly type: 'client_credentials';
}

/** Where an assertion will be presented, so the code that mints it can set `aud` and check the target. */
export interface AssertionTarget {
  /** The authorization server's issuer: the assertion's audience (RFC 7523 §3). */
  readonly issuer: string;
  /** The token endpoint the assertion will be sent to. */
  readonly tokenEndpoint: string;
  /** The MCP server the token is for (RFC 8707 `resource`). */
  readonly resource: string;
}

/**
 * JWT bearer grant (RFC 7523 §2.1), as workload identity federation uses it
 * (extension `io.modelcontextprotocol/auth/wif`): `assertion` returns a JWT the
 * platform issued to this workload (e.g. a Kubernetes or CI OIDC token), asked
 * for anew at every token request. A refusal is reported, never retried with
 * another grant.
 */
export interface JwtBearerGrant extends MachineClient {
  /** Selects this grant. */
  readonly type: 'jwt_bearer';
  /** Returns a fresh JWT for `target` (its `aud` the issuer); called at every token request. */
  readonly assertion: (target: AssertionTarget) => Promise<string>;
}

/** The enterprise identity provider of a token exchange, and this client's registration there. */
export interface IdentityProvider {
  /** The IdP's issuer; its metadata (RFC 8414 / OpenID Discovery) names the token endpoint unless `tokenEndpoint` does. */
  readonly issuer?: string;
  /** The IdP's token endpoint, when its metadata should not be fetched. */
  readonly tokenEndpoint?: string;
  /** This client at the IdP (often a public client: `client_id` only). */
  readonly client: ClientCredentials;
}

/**
 * Enterprise-managed authorization (extension `io.modelcontextprotocol/enterprise-managed-authorization`):
 * the user's identity assertion from single sign-on (`subjectToken`, an ID token
 * by default) is exchanged at the enterprise IdP for an Identity Assertion
 * Authorization Grant (ID-JAG, RFC 8693 token exchange), which the MCP server's
 * authorization server redeems with the JWT bearer grant (RFC 7523). The user
 * signed in once, at the IdP; no redirect reaches the MCP authorization server.
 */
export interface TokenExchangeGrant extends MachineClient {
  /** Selects this grant. */
  readonly type: 'token_exchange';
  /** The token to exchange, asked for at every exchange (SSO tokens expire). */
  readonly subjectToken: () => Promise<string>;
  /** RFC 8693 §3 token type of `subjectToken` (default `urn:ietf:params:oauth:token-type:id_token`). */
  readonly subjectTokenType?: string;
  /** Where the identity assertion is exchanged for an ID-JAG (RFC 8693). */
  readonly idp: IdentityProvider;
}
