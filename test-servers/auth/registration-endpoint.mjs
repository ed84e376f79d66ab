import { oauthError } from './auth-context.mjs';
import { isAllowedRedirectUri, isLoopback } from './client-registry.mjs';
import { randomToken } from './grant-store.mjs';

/** @typedef {import('./auth-context.mjs').AuthContext} AuthContext */

const AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'];

/**
 * Dynamic Client Registration (RFC 7591 § 3). Records the metadata as sent
 * (2026-07-28 requires `application_type`), issues a secret to confidential
 * clients, and with `dcrRedirectRules: 'oidc'` refuses redirect URIs that do
 * not fit the application type (OIDC Registration § 2), as 2026-07-28 tells
 * clients to expect.
 * @param {AuthContext} context
 * @param {Request} request
 */
export async function handleRegistration(context, request) {
  if (request.method !== 'POST') return new Response('Method not allowed', { status: 405, headers: { allow: 'POST' } });
  let metadata;
  try {
    metadata = await request.json();
  } catch {
    return oauthError(400, 'invalid_client_metadata', 'the body is not JSON');
  }
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    return oauthError(400, 'invalid_client_metadata', 'the body is not a JSON object');
  }
  const grantTypes = metadata.grant_types ?? ['authorization_code'];
  const redirectUris = metadata.redirect_uris ?? [];
  const method = metadata.token_endpoint_auth_method ?? 'client_secret_basic';
  if (!Array.isArray(grantTypes) || !Array.isArray(redirectUris)) {
    return oauthError(400, 'invalid_client_metadata', 'grant_types and redirect_uris must be arrays');
  }
  if (!AUTH_METHODS.includes(method)) {
    return oauthError(400, 'invalid_client_metadata', `unsupported token_endpoint_auth_method ${method}`);
  }
  if (grantTypes.includes('authorization_code') && redirectUris.length === 0) {
    return oauthError(400, 'invalid_redirect_uri', 'redirect_uris is required for the authorization_code grant');
  }
  const bad = redirectUris.find((uri) => typeof uri !== 'string' || !isAllowedRedirectUri(uri));
  if (bad !== undefined) return oauthError(400, 'invalid_redirect_uri', `redirect URI not allowed: ${String(bad)}`);
  if (context.config.dcrRedirectRules === 'oidc') {
    const problem = oidcRedirectProblem(metadata.application_type ?? 'web', redirectUris);
    if (problem !== undefined) return oauthError(400, 'invalid_redirect_uri', problem);
  }
  if (method === 'private_key_jwt' && metadata.jwks === undefined && typeof metadata.jwks_uri !== 'string') {
    return oauthError(400, 'invalid_client_metadata', 'private_key_jwt needs jwks or jwks_uri');
  }

  const clientId = `dcr-${randomToken(9)}`;
  const confidential = method === 'client_secret_basic' || method === 'client_secret_post';
  const secret = confidential ? randomToken() : undefined;
  context.store.clients.set(clientId, {
    client_id: clientId,
    token_endpoint_auth_method: method,
    redirect_uris: redirectUris,
    grant_types: grantTypes,
    source: 'dcr',
    ...(secret !== undefined && { client_secret: secret }),
    ...(metadata.jwks !== undefined && { jwks: metadata.jwks }),
    ...(typeof metadata.jwks_uri === 'string' && { jwks_uri: metadata.jwks_uri }),
  });
  context.log.registrations.push({ via: 'dcr', client_id: clientId, metadata });
  return Response.json(
    {
      ...metadata,
      client_id: clientId,
      client_id_issued_at: Math.floor(Date.now() / 1000),
      token_endpoint_auth_method: method,
      grant_types: grantTypes,
      redirect_uris: redirectUris,
      ...(secret !== undefined && { client_secret: secret, client_secret_expires_at: 0 }),
    },
    { status: 201, headers: { 'cache-control': 'no-store' } },
  );
}

/**
 * OIDC Registration § 2 `application_type`: web clients use https and not
 * localhost; native clients use loopback http or a private-use scheme.
 * @param {unknown} applicationType
 * @param {string[]} uris
 * @returns {string | undefined}
 */
function oidcRedirectProblem(applicationType, uris) {
  for (const uri of uris) {
    const url = new URL(uri);
    if (applicationType === 'web' && (url.protocol !== 'https:' || isLoopback(url.hostname))) {
      return `a web client's redirect URIs must be https and not localhost: ${uri}`;
    }
    if (applicationType === 'native' && url.protocol === 'https:') {
      return `a native client's redirect URIs must be loopback http or a private-use scheme: ${uri}`;
    }
  }
  return undefined;
}
