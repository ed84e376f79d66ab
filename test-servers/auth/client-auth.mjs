import { findClient } from './client-registry.mjs';
import { verifyJwt } from './jwt-verify.mjs';

/** @typedef {import('./auth-context.mjs').AuthContext} AuthContext */
/** @typedef {import('./grant-store.mjs').ClientRecord} ClientRecord */

const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** Seconds of clock skew tolerated on an assertion's `exp`. */
const SKEW_SECONDS = 30;

/**
 * @typedef {{ ok: true, client: ClientRecord, method: ClientRecord['token_endpoint_auth_method'] }
 *   | { ok: false, error: 'invalid_client' | 'invalid_request', description: string }} ClientAuthResult
 */

/**
 * Authenticates the client at the token endpoint (RFC 6749 § 2.3, RFC 7523
 * § 2.2 for private_key_jwt). Strict on purpose: the method presented must be
 * the one the client registered, so a test learns which one the client used.
 * @param {AuthContext} context
 * @param {Request} request
 * @param {Record<string, string>} form
 * @param {string} tokenEndpoint the token endpoint URL, an accepted assertion `aud`
 * @returns {Promise<ClientAuthResult>}
 */
export async function authenticateClient(context, request, form, tokenEndpoint) {
  const presented = presentedCredentials(request, form);
  if ('problem' in presented) return { ok: false, error: 'invalid_request', description: presented.problem };
  const found = await findClient(context, presented.clientId);
  if (!found.ok) return { ok: false, error: 'invalid_client', description: found.description };
  const { client } = found;
  if (client.token_endpoint_auth_method !== presented.method) {
    return {
      ok: false,
      error: 'invalid_client',
      description: `client authenticated with ${presented.method}, registered for ${client.token_endpoint_auth_method}`,
    };
  }
  if (presented.method === 'client_secret_basic' || presented.method === 'client_secret_post') {
    if (presented.secret !== client.client_secret)
      return { ok: false, error: 'invalid_client', description: 'wrong client secret' };
  }
  if (presented.method === 'private_key_jwt') {
    const problem = await assertionProblem(context, client, presented.assertion, [tokenEndpoint, context.issuer]);
    if (problem !== undefined) return { ok: false, error: 'invalid_client', description: problem };
  }
  return { ok: true, client, method: presented.method };
}

/**
 * @param {Request} request
 * @param {Record<string, string>} form
 * @returns {{ problem: string } | { method: ClientRecord['token_endpoint_auth_method'], clientId: string, secret?: string, assertion: string }}
 */
function presentedCredentials(request, form) {
  const authorization = request.headers.get('authorization');
  const basic = authorization?.match(/^Basic\s+(\S+)$/i);
  const used = [basic, form.client_secret, form.client_assertion].filter(
    (value) => value !== undefined && value !== null,
  );
  if (used.length > 1) return { problem: 'more than one client authentication method used' };
  if (basic) {
    // RFC 6749 § 2.3.1: id and secret are form-urlencoded before base64.
    const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return { problem: 'malformed Basic credentials' };
    const unform = (/** @type {string} */ text) => decodeURIComponent(text.replaceAll('+', ' '));
    const clientId = unform(decoded.slice(0, colon));
    if (form.client_id !== undefined && form.client_id !== clientId)
      return { problem: 'client_id differs from Basic credentials' };
    return { method: 'client_secret_basic', clientId, secret: unform(decoded.slice(colon + 1)), assertion: '' };
  }
  if (form.client_assertion !== undefined) {
    if (form.client_assertion_type !== JWT_BEARER_ASSERTION) return { problem: 'unsupported client_assertion_type' };
    const claims = decodeClaims(form.client_assertion);
    const clientId = form.client_id ?? (typeof claims?.sub === 'string' ? claims.sub : undefined);
    if (clientId === undefined) return { problem: 'client assertion names no client' };
    return { method: 'private_key_jwt', clientId, assertion: form.client_assertion };
  }
  if (form.client_id === undefined) return { problem: 'no client_id' };
  if (form.client_secret !== undefined) {
    return { method: 'client_secret_post', clientId: form.client_id, secret: form.client_secret, assertion: '' };
  }
  return { method: 'none', clientId: form.client_id, assertion: '' };
}

/** @param {string} jwt */
function decodeClaims(jwt) {
  try {
    return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * RFC 7523 § 3: iss = sub = client_id, aud names this AS, exp in the future,
 * jti not seen before, signed by a key of the client.
 * @param {AuthContext} context
 * @param {ClientRecord} client
 * @param {string} assertion
 * @param {string[]} audiences
 * @returns {Promise<string | undefined>}
 */
async function assertionProblem(context, client, assertion, audiences) {
  let jwks = client.jwks;
  if (jwks === undefined && client.jwks_uri !== undefined) {
    try {
      jwks = await (await fetch(client.jwks_uri)).json();
    } catch {
      return 'client jwks_uri unreadable';
    }
  }
  if (jwks === undefined) return 'client has no keys';
  const verified = await verifyJwt(assertion, jwks);
  if (!verified.ok) return `client assertion: ${verified.reason}`;
  const { iss, sub, aud, exp, jti } = verified.claims;
  if (iss !== client.client_id || sub !== client.client_id) return 'client assertion iss and sub must be the client_id';
  const audList = Array.isArray(aud) ? aud : [aud];
  if (!audList.some((value) => audiences.includes(value)))
    return 'client assertion aud names neither the token endpoint nor the issuer';
  if (typeof exp !== 'number' || exp + SKEW_SECONDS < Date.now() / 1000)
    return 'client assertion expired or without exp';
  if (typeof jti !== 'string' || context.store.jtis.has(jti)) return 'client assertion jti missing or replayed';
  context.store.jtis.add(jti);
  return undefined;
}
