import { AuthError } from '../errors/auth-error.js';
import { canonicalResource, resourceCovers } from './canonical-resource.js';
import type { OAuthHttp } from './oauth-http.js';
import {
  type AuthorizationServerMetadata,
  AuthorizationServerMetadataSchema,
  type ProtectedResourceMetadata,
  ProtectedResourceMetadataSchema,
} from './schemas.js';

/** What the MCP server says about its protection: the resource to ask tokens for, and its authorization servers. */
export interface ResourceInfo {
  /** The `resource` parameter: PRM `resource` exactly as published, else the canonical server URI. */
  readonly resource: string;
  readonly authorizationServers: readonly string[];
  readonly metadata: ProtectedResourceMetadata | undefined;
  /** No PRM anywhere: the 2025-03-26 flow (the AS is the server's origin). */
  readonly legacy: boolean;
}

/**
 * The PRM URLs to try, in order (RFC 9728 §3.1; MCP 2025-11-25 "Protected Resource
 * Metadata Discovery"): the challenge's `resource_metadata`, then path-inserted,
 * then root.
 */
export function resourceMetadataUrls(serverUrl: URL, fromChallenge?: string): string[] {
  // An unparsable one stays as it is: the URL check refuses it with a typed error.
  const urls: string[] = [];
  if (fromChallenge)
    urls.push(URL.canParse(fromChallenge, serverUrl) ? new URL(fromChallenge, serverUrl).href : fromChallenge);
  const path = serverUrl.pathname.replace(/\/$/, '');
  if (path) urls.push(`${serverUrl.origin}/.well-known/oauth-protected-resource${path}`);
  urls.push(`${serverUrl.origin}/.well-known/oauth-protected-resource`);
  return [...new Set(urls)];
}

/**
 * Finds and checks the server's Protected Resource Metadata. Without any, falls
 * back to the 2025-03-26 flow. PRM whose `resource` does not cover this server is
 * refused (RFC 9728 §3.3): its tokens would be meant for someone else.
 */
export async function discoverResource(http: OAuthHttp, resourceMetadataUrl?: string): Promise<ResourceInfo> {
  const { serverUrl } = http;
  for (const url of resourceMetadataUrls(serverUrl, resourceMetadataUrl)) {
    const lookup = await http.getJson(url, 'resource_metadata', ProtectedResourceMetadataSchema);
    if (!('found' in lookup)) continue;
    const metadata = lookup.found;
    if (!resourceCovers(metadata.resource, serverUrl)) {
      throw new AuthError(
        'resource_mismatch',
        `the protected resource metadata at ${url} names ${metadata.resource}, not ${canonicalResource(serverUrl)}`,
      );
    }
    const servers = metadata.authorization_servers ?? [];
    if (servers.length === 0) {
      throw new AuthError(
        'invalid_metadata',
        `the protected resource metadata at ${url} lists no authorization server`,
      );
    }
    return { resource: metadata.resource, authorizationServers: servers, metadata, legacy: false };
  }
  return {
    resource: canonicalResource(serverUrl),
    authorizationServers: [serverUrl.origin],
    metadata: undefined,
    legacy: true,
  };
}

/**
 * The AS metadata URLs to try for an issuer, in the order of MCP 2025-11-25
 * "Authorization Server Metadata Discovery": RFC 8414 then OpenID Discovery,
 * path-inserted first; for an issuer with a path, OIDC's path-appended form last.
 */
export function authorizationServerMetadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, '');
  if (!path) {
    return [`${url.origin}/.well-known/oauth-authorization-server`, `${url.origin}/.well-known/openid-configuration`];
  }
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

/**
 * Fetches an authorization server's metadata. The document's `issuer` must equal
 * the issuer the URL was built from, by simple string comparison (RFC 8414 §3.3;
 * MUST in 2026-07-28): anything else is refused, never used. For a 2025-03-26
 * server without metadata, the default endpoints `/authorize`, `/token` and
 * `/register` at its origin stand in.
 */
export async function discoverAuthorizationServer(
  http: OAuthHttp,
  issuer: string,
  legacy: boolean,
): Promise<AuthorizationServerMetadata> {
  if (!URL.canParse(issuer)) {
    throw new AuthError('invalid_metadata', `the authorization server ${JSON.stringify(issuer)} is not a URL`);
  }
  const misses: string[] = [];
  for (const url of authorizationServerMetadataUrls(issuer)) {
    const lookup = await http.getJson(url, 'authorization_server_metadata', AuthorizationServerMetadataSchema);
    if (!('found' in lookup)) {
      misses.push(lookup.missing);
      continue;
    }
    if (lookup.found.issuer !== issuer) {
      throw new AuthError(
        'issuer_mismatch',
        `the authorization server metadata at ${url} is for issuer ${JSON.stringify(lookup.found.issuer)}, not ${JSON.stringify(issuer)}`,
      );
    }
    return lookup.found;
  }
  if (legacy) {
    // 2025-03-26 "Fallbacks for Servers without Metadata Discovery"; PKCE is REQUIRED there.
    const origin = new URL(issuer).origin;
    return {
      issuer,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      registration_endpoint: `${origin}/register`,
      code_challenge_methods_supported: ['S256'],
    };
  }
  throw new AuthError('metadata_not_found', `no authorization server metadata for ${issuer} (${misses.join('; ')})`);
}

/**
 * Refuses an authorization server that does not show S256 PKCE support (MCP
 * 2025-11-25: absent `code_challenge_methods_supported` means MUST NOT proceed).
 */
export function assertPkceSupport(metadata: AuthorizationServerMetadata): void {
  if (metadata.code_challenge_methods_supported?.includes('S256')) return;
  throw new AuthError(
    'pkce_unsupported',
    `the authorization server ${metadata.issuer} does not advertise S256 PKCE (code_challenge_methods_supported)`,
  );
}
