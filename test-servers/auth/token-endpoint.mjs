import { isKnownResource, oauthError } from './auth-context.mjs';
import { authenticateClient } from './client-auth.mjs';

/** @typedef {import('./auth-context.mjs').AuthContext} AuthContext */
/** @typedef {import('./grant-store.mjs').ClientRecord} ClientRecord */

/**
 * The token endpoint (OAuth 2.1 § 3.2): `authorization_code` (code_verifier,
 * redirect_uri and resource checked), `refresh_token` (rotated: the old one
 * stops working), and `client_credentials` for confidential clients.
 * @param {AuthContext} context
 * @param {Request} request
 * @param {string} tokenEndpoint this endpoint's URL
 */
export async function handleToken(context, request, tokenEndpoint) {
  if (request.method !== 'POST') return new Response('Method not allowed', { status: 405, headers: { allow: 'POST' } });
  if (!(request.headers.get('content-type') ?? '').startsWith('application/x-www-form-urlencoded')) {
    return oauthError(400, 'invalid_request', 'the body must be application/x-www-form-urlencoded');
  }
  const form = Object.fromEntries(new URLSearchParams(await request.text()));
  const auth = await authenticateClient(context, request, form, tokenEndpoint);
  if (!auth.ok) {
    const challenge = request.headers.has('authorization') ? { 'www-authenticate': 'Basic realm="token"' } : undefined;
    return oauthError(auth.error === 'invalid_client' ? 401 : 400, auth.error, auth.description, challenge);
  }
  if (form.grant_type === 'authorization_code') return authorizationCode(context, auth.client, form);
  if (form.grant_type === 'refresh_token') return refresh(context, auth.client, form);
  if (form.grant_type === 'client_credentials') return clientCredentials(context, auth.client, auth.method, form);
  return oauthError(400, 'unsupported_grant_type', `unsupported grant_type ${String(form.grant_type)}`);
}

/**
 * @param {AuthContext} context
 * @param {ClientRecord} client
 * @param {Record<string, string>} form
 */
async function authorizationCode(context, client, form) {
  const record = context.store.codes.get(form.code ?? '');
  if (record === undefined || record.client_id !== client.client_id || record.expiresAt < Date.now()) {
    return oauthError(400, 'invalid_grant', 'unknown, expired or foreign authorization code');
  }
  if (record.used) {
    // OAuth 2.1 § 4.1.3: a replayed code revokes what it produced.
    for (const token of record.issued) context.store.revoke(token);
    return oauthError(400, 'invalid_grant', 'authorization code already used');
  }
  record.used = true;
  if (form.redirect_uri !== record.redirect_uri) return oauthError(400, 'invalid_grant', 'redirect_uri does not match');
  if (!(await verifierMatches(form.code_verifier, record.code_challenge, record.code_challenge_method))) {
    return oauthError(400, 'invalid_grant', 'code_verifier does not match the code_challenge');
  }
  const resource = resourceProblem(context, form.resource, record.resource);
  if (resource !== undefined) return resource;
  const refresh = context.config.refreshTokens && client.grant_types.includes('refresh_token');
  const response = issue(context, client, record.scope, record.resource, refresh);
  record.issued.push(...response.issued);
  return response.answer;
}

/**
 * @param {AuthContext} context
 * @param {ClientRecord} client
 * @param {Record<string, string>} form
 */
function refresh(context, client, form) {
  const token = form.refresh_token ?? '';
  const record = context.store.token(token);
  if (record === undefined || record.kind !== 'refresh' || record.client_id !== client.client_id || !record.active) {
    return oauthError(400, 'invalid_grant', 'unknown, rotated or foreign refresh token');
  }
  const resource = resourceProblem(context, form.resource, record.resource, false);
  if (resource !== undefined) return resource;
  let scope = record.scope;
  if (form.scope !== undefined) {
    scope = form.scope.split(' ').filter((value) => value !== '');
    if (scope.some((value) => !record.scope.includes(value))) {
      return oauthError(400, 'invalid_scope', 'a refresh may not widen the scope');
    }
  }
  context.store.revoke(token);
  return issue(context, client, scope, record.resource, true).answer;
}

/**
 * @param {AuthContext} context
 * @param {ClientRecord} client
 * @param {string} method
 * @param {Record<string, string>} form
 */
function clientCredentials(context, client, method, form) {
  if (method === 'none')
    return oauthError(400, 'unauthorized_client', 'client_credentials needs a confidential client');
  if (!client.grant_types.includes('client_credentials')) {
    return oauthError(400, 'unauthorized_client', 'client_credentials is not among the client grant_types');
  }
  const scope = (form.scope ?? context.config.defaultScope).split(' ').filter((value) => value !== '');
  const unknown = scope.filter((value) => !context.config.asScopes.includes(value));
  if (unknown.length > 0) return oauthError(400, 'invalid_scope', `unknown scope ${unknown.join(' ')}`);
  const problem = resourceProblem(context, form.resource, undefined);
  if (problem !== undefined) return problem;
  return issue(context, client, scope, form.resource, false).answer;
}

/**
 * RFC 8707 on the token request: MCP (2025-06-18 and later) has the client
 * send `resource` on the token request as well; it must be the one the grant
 * was made for (or, for a fresh grant, this scenario's MCP endpoint).
 * @param {AuthContext} context
 * @param {string | undefined} sent
 * @param {string | undefined} granted
 * @param {boolean} [required] whether a grant made with a resource needs it again here
 */
function resourceProblem(context, sent, granted, required = true) {
  if (sent === undefined) {
    if (required && granted !== undefined) {
      return oauthError(400, 'invalid_target', 'resource is required on the token request too');
    }
    return undefined;
  }
  const known = granted === undefined ? isKnownResource(context, sent) : sent === granted;
  if (!known) return oauthError(400, 'invalid_target', `unknown resource ${sent}`);
  return undefined;
}

/**
 * @param {string | undefined} verifier
 * @param {string} challenge
 * @param {string} method
 */
async function verifierMatches(verifier, challenge, method) {
  if (verifier === undefined || !/^[\w.~-]{43,128}$/.test(verifier)) return false;
  if (method === 'plain') return verifier === challenge;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return Buffer.from(digest).toString('base64url') === challenge;
}

/**
 * @param {AuthContext} context
 * @param {ClientRecord} client
 * @param {string[]} scope
 * @param {string | undefined} resource
 * @param {boolean} withRefresh
 */
function issue(context, client, scope, resource, withRefresh) {
  const ttl = context.config.accessTokenTtl;
  const { access, refresh } = context.store.issueTokens(
    { client_id: client.client_id, scope, resource },
    ttl,
    withRefresh,
  );
  const answer = Response.json(
    {
      access_token: access,
      token_type: 'Bearer',
      expires_in: ttl,
      scope: scope.join(' '),
      ...(refresh !== undefined && { refresh_token: refresh }),
    },
    { headers: { 'cache-control': 'no-store', pragma: 'no-cache' } },
  );
  return { answer, issued: refresh === undefined ? [access] : [access, refresh] };
}
