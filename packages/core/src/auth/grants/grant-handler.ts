import type { OAuthHttp } from '../oauth-http.js';
import type { OAuthOptions } from '../options.js';
import type { PendingAuthorizations } from '../pending-authorizations.js';
import type { ClientCredentials } from '../registered-client.js';
import type { AuthorizationServerMetadata, ProtectedResourceMetadata, TokenResponse } from '../schemas.js';
import type { OAuthStore } from '../store.js';
import type { Grant } from './grant.js';

/** Everything a grant needs to get tokens for one resource from one authorization server. */
export interface GrantContext {
  /** OAuth's requests for this MCP server (URL rules, size and time bounds). */
  readonly http: OAuthHttp;
  readonly store: OAuthStore;
  /** Where the authorization-code grant keeps its record while the user is away. */
  readonly pending: PendingAuthorizations;
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
