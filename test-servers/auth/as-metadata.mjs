/**
 * The authorization server's metadata documents and where they live.
 *
 * 2025-11-25 § Authorization Server Metadata Discovery: for an issuer with a
 * path (`https://as/tenant1`) a client tries
 * `/.well-known/oauth-authorization-server/tenant1`, then
 * `/.well-known/openid-configuration/tenant1`, then
 * `/tenant1/.well-known/openid-configuration`; for an issuer without a path
 * `/.well-known/oauth-authorization-server`, then
 * `/.well-known/openid-configuration`. A scenario serves only the documents it
 * names, so a test sees the client walk that order (in the request log).
 */

/** @typedef {import('./scenario-config.mjs').ScenarioConfig} ScenarioConfig */

/** The issuer a `wrong` scenario claims: another origin entirely. */
export const WRONG_ISSUER_ORIGIN = 'https://attacker.example';

/**
 * Endpoint paths on the AS origin. Advertised endpoints live under `/oauth/`
 * so a test can tell them from the 2025-03-26 default endpoints
 * (`/authorize`, `/token`, `/register` at the root), which only the `defaults`
 * legacy scenario serves.
 * @param {ScenarioConfig} config
 */
export function endpointPaths(config) {
  if (config.legacy === 'defaults') return { authorize: '/authorize', token: '/token', register: '/register' };
  const base = config.legacy === 'metadata' ? '/oauth' : `${config.issuerPath}/oauth`;
  return { authorize: `${base}/authorize`, token: `${base}/token`, register: `${base}/register` };
}

/**
 * Which document (if any) a well-known path asks for.
 * @param {string} pathname
 * @param {ScenarioConfig} config
 * @returns {'oauth' | 'oidc' | undefined}
 */
export function metadataKindAt(pathname, config) {
  if (config.legacy === 'defaults') return undefined;
  if (config.legacy === 'metadata') {
    return pathname === '/.well-known/oauth-authorization-server' ? 'oauth' : undefined;
  }
  const path = config.issuerPath;
  const served = new Set(config.metadata);
  if (pathname === `/.well-known/oauth-authorization-server${path}` && served.has('oauth')) return 'oauth';
  if (pathname === `/.well-known/openid-configuration${path}` && served.has('oidc')) return 'oidc';
  const appended = path === '' ? '/.well-known/openid-configuration' : `${path}/.well-known/openid-configuration`;
  if (pathname === appended && served.has('oidc-appended')) return 'oidc';
  return undefined;
}

/**
 * The metadata document (RFC 8414 § 2, plus the OIDC Discovery fields for `oidc`).
 * @param {ScenarioConfig} config
 * @param {string} issuer the real issuer
 * @param {string} origin the AS origin
 * @param {'oauth' | 'oidc'} kind
 */
export function metadataDocument(config, issuer, origin, kind) {
  const paths = endpointPaths(config);
  const stated = {
    correct: issuer,
    wrong: `${WRONG_ISSUER_ORIGIN}${config.issuerPath}`,
    'trailing-slash': `${issuer}/`,
  }[config.issuerInMetadata];
  /** @type {Record<string, unknown>} */
  const document = {
    issuer: stated,
    authorization_endpoint: `${origin}${paths.authorize}`,
    token_endpoint: `${origin}${paths.token}`,
    ...(config.dcr && { registration_endpoint: `${origin}${paths.register}` }),
    scopes_supported: config.asScopes,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none', 'private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: ['ES256', 'RS256'],
    ...(config.pkceMethods !== null && { code_challenge_methods_supported: config.pkceMethods }),
    authorization_response_iss_parameter_supported: config.issSupported,
    ...(config.cimd && { client_id_metadata_document_supported: true }),
  };
  if (kind === 'oidc') {
    Object.assign(document, {
      jwks_uri: `${origin}${config.issuerPath}/oauth/jwks`,
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES256'],
    });
  }
  return document;
}
