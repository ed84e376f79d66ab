import { WRONG_ISSUER_ORIGIN } from './as-metadata.mjs';
import { isKnownResource } from './auth-context.mjs';
import { findClient, isAllowedRedirectUri } from './client-registry.mjs';

/** @typedef {import('./auth-context.mjs').AuthContext} AuthContext */

/**
 * The auto-approving authorization endpoint (OAuth 2.1 § 4.1.1): no login
 * page, it answers at once with a redirect to `redirect_uri` carrying `code`,
 * `state` and (per scenario) `iss` (RFC 9207), or an `error`. Requests it
 * cannot redirect safely (unknown client, unregistered redirect URI) get a 400
 * page, as OAuth requires.
 * @param {AuthContext} context
 * @param {URL} url
 */
export async function handleAuthorize(context, url) {
  const params = url.searchParams;
  const clientId = params.get('client_id');
  if (clientId === null) return page(400, 'client_id is required');
  const found = await findClient(context, clientId);
  if (!found.ok) return page(400, found.description);
  const redirectUri = params.get('redirect_uri');
  if (redirectUri === null) return page(400, 'redirect_uri is required');
  const registered = found.client.redirect_uris;
  const allowed =
    registered.length > 0
      ? registered.some((uri) => sameRedirect(uri, redirectUri))
      : isAllowedRedirectUri(redirectUri);
  if (!allowed) {
    return page(400, `redirect_uri is not registered for this client: ${redirectUri}`);
  }

  const answer = (/** @type {Record<string, string>} */ result) =>
    redirect(context, redirectUri, params.get('state'), result);
  const problem = requestProblem(context, params);
  if (problem !== undefined) return answer(problem);
  if (context.config.authorizeOutcome === 'deny') {
    return answer({ error: 'access_denied', error_description: 'The user denied the request' });
  }
  const requested = params.get('scope');
  const resource = params.get('resource') ?? undefined;
  const code = context.store.issueCode({
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: params.get('code_challenge') ?? '',
    code_challenge_method: params.get('code_challenge_method') ?? 'plain',
    scope: (requested ?? context.config.defaultScope).split(' ').filter((scope) => scope !== ''),
    resource,
  });
  return answer({ code });
}

/**
 * @param {AuthContext} context
 * @param {URLSearchParams} params
 * @returns {Record<string, string> | undefined} the error to redirect with
 */
function requestProblem(context, params) {
  const invalid = (/** @type {string} */ description) => ({ error: 'invalid_request', error_description: description });
  if (params.get('response_type') !== 'code') {
    return { error: 'unsupported_response_type', error_description: 'only response_type=code' };
  }
  if (!params.get('code_challenge')) return invalid('PKCE code_challenge is required');
  const method = params.get('code_challenge_method') ?? 'plain';
  if (!(context.config.pkceMethods ?? ['S256']).includes(/** @type {'S256'} */ (method))) {
    return invalid(`code_challenge_method ${method} is not supported`);
  }
  const resources = params.getAll('resource');
  if (resources.length > 1) return invalid('more than one resource');
  if (resources[0] !== undefined && !isKnownResource(context, resources[0])) {
    return { error: 'invalid_target', error_description: `unknown resource ${resources[0]}` };
  }
  const unknown = (params.get('scope') ?? '')
    .split(' ')
    .filter((scope) => scope !== '' && !context.config.asScopes.includes(scope));
  if (unknown.length > 0) return { error: 'invalid_scope', error_description: `unknown scope ${unknown.join(' ')}` };
  return undefined;
}

/**
 * 302 to the redirect URI, its own query kept, with `state` and the
 * scenario's `iss` variant added.
 * @param {AuthContext} context
 * @param {string} redirectUri
 * @param {string | null} state
 * @param {Record<string, string>} result
 */
function redirect(context, redirectUri, state, result) {
  const target = new URL(redirectUri);
  for (const [name, value] of Object.entries(result)) target.searchParams.set(name, value);
  if (state !== null) target.searchParams.set('state', state);
  const iss = {
    correct: context.issuer,
    wrong: `${WRONG_ISSUER_ORIGIN}${context.config.issuerPath}`,
    'trailing-slash': `${context.issuer}/`,
    missing: undefined,
  }[context.config.issInResponse];
  if (iss !== undefined) target.searchParams.set('iss', iss);
  return new Response(null, { status: 302, headers: { location: target.href, 'cache-control': 'no-store' } });
}

/**
 * Exact match, except that a loopback IP redirect URI may use any port
 * (RFC 8252 § 7.3: a native app binds whatever port is free).
 * @param {string} registered
 * @param {string} requested
 */
function sameRedirect(registered, requested) {
  if (registered === requested) return true;
  if (!URL.canParse(registered) || !URL.canParse(requested)) return false;
  const [a, b] = [new URL(registered), new URL(requested)];
  if (a.protocol !== 'http:' || !['127.0.0.1', '[::1]'].includes(a.hostname)) return false;
  a.port = b.port;
  return a.href === b.href;
}

/**
 * @param {number} status
 * @param {string} message
 */
function page(status, message) {
  return new Response(`Authorization request refused: ${message}`, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
}
