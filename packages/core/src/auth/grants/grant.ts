import type { ClientCredentials, OAuthOptions } from '../options.js';
import type { AuthorizationServerMetadata, ProtectedResourceMetadata, TokenResponse } from '../schemas.js';
import type { OAuthStore } from '../store.js';

/**
 * How an OAuthProvider obtains tokens. The default, `authorization_code`, sends
 * the user to the authorization server (PKCE, redirect handler). The machine and
 * enterprise grants come from the MCP auth extensions; their handlers live beside
 * this file, one per grant.
 */
export type Grant =
  | { readonly type: 'authorization_code' }
  /** `io.modelcontextprotocol/oauth-client-credentials`: the client's own credentials (secret or private_key_jwt). */
  | { readonly type: 'client_credentials' }
  /** RFC 7523 JWT bearer grant (workload identity, enterprise-managed authorization): `assertion` is asked for per request. */
  | { readonly type: 'jwt_bearer'; readonly assertion: () => Promise<string> }
  /** RFC 8693 token exchange (enterprise-managed authorization, first leg at the IdP). */
  | {
      readonly type: 'token_exchange';
      readonly subjectToken: () => Promise<string>;
      readonly subjectTokenType: string;
    };

/** Everything a grant needs to get tokens for one resource from one authorization server. */
export interface GrantContext {
  readonly fetch: typeof fetch;
  readonly store: OAuthStore;
  readonly options: OAuthOptions;
  /** The MCP endpoint being authorized for. */
  readonly serverUrl: URL;
  /** The RFC 8707 `resource` value (PRM `resource` as published). */
  readonly resource: string;
  readonly resourceMetadata: ProtectedResourceMetadata | undefined;
  readonly metadata: AuthorizationServerMetadata;
  readonly client: ClientCredentials;
  /** The scope to ask for, already selected (challenge, PRM, union with earlier grants). */
  readonly scope: string | undefined;
  /** A token request to this AS with this client's authentication (and, with DPoP, a proof). */
  requestToken(params: Readonly<Record<string, string>>): Promise<TokenResponse>;
}

/** One grant type's way of getting tokens. */
export interface GrantHandler<G extends Grant = Grant> {
  /** The `grant_types` this client registers with (DCR). */
  readonly grantTypes: readonly string[];
  /** Whether it needs the user (a redirect handler): checked before any registration happens. */
  readonly interactive: boolean;
  obtain(grant: G, context: GrantContext): Promise<TokenResponse>;
}
