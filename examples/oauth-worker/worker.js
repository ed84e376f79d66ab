// A Cloudflare Worker that calls a protected MCP server for its user, with the
// OAuth state in KV (binding OAUTH_KV) across invocations:
//
//   GET /call?tool=echo&text=hi   calls the tool; if the server wants authorization,
//                                 answers 302 to the authorization server instead
//   GET /callback?code=…&state=…  where the authorization server sends the user back:
//                                 finishes the authorization, then 302 to the /call that
//                                 started it
//
//   POST /login?name=ann          with Authorization: Bearer <SESSION_SECRET>: a session cookie
//
// Both /call and /callback need the session cookie: the caller comes from it,
// never from the request, and each caller's OAuth state is kept apart in KV.
// A callback is therefore finished only for the caller whose flow issued its
// `state`. The server's URL is the MCP_URL variable. The Worker registers itself
// (DCR) with redirect URI <worker origin>/callback; a pre-registered client would
// go in `clients`.
import { AuthError, Client, OAuthProvider, StreamableHttpTransport } from '@mcp/core';
import { callerOf, login } from './caller.js';
import { kvOAuthStore } from './kv-oauth-store.js';

/** Where `/callback` sends the caller once done, per authorization `state`. */
const returnKey = (caller, state) => `return:${caller}:${state}`;

/**
 * @typedef {object} Env
 * @property {string} MCP_URL
 * @property {KVNamespace} OAUTH_KV
 * @property {string} [SESSION_SECRET] signs the session cookies (at least 32 characters)
 */

/**
 * A provider for this invocation and caller: all it knows lives in KV, under the caller's prefix.
 * @param {Env} env
 * @param {string} origin this Worker's origin
 * @param {string} caller
 * @param {(url: URL) => Promise<string>} authorize
 */
function providerFor(env, origin, caller, authorize) {
  return new OAuthProvider({
    store: kvOAuthStore(env.OAUTH_KV, `user:${caller}:`),
    redirectUri: `${origin}/callback`,
    clientMetadata: { client_name: 'MCP OAuth Worker example', application_type: 'web' },
    authorize,
  });
}

/**
 * Calls the tool. When authorization is needed, the provider saves the pending
 * authorization in KV and hands us the URL; we remember where to come back to,
 * end the flow with `redirect_started` (which keeps the pending record for
 * `/callback`) and send the user there.
 * @param {Request} request
 * @param {Env} env
 * @param {string} caller
 */
async function call(request, env, caller) {
  const url = new URL(request.url);
  const tool = url.searchParams.get('tool');
  if (!tool) return Response.json({ error: 'missing ?tool=' }, { status: 400 });
  const args = Object.fromEntries([...url.searchParams].filter(([name]) => name !== 'tool'));
  /** @type {string | undefined} */
  let location;
  const auth = providerFor(env, url.origin, caller, async (authorizationUrl) => {
    const state = authorizationUrl.searchParams.get('state') ?? '';
    await env.OAUTH_KV.put(returnKey(caller, state), url.href, { expirationTtl: 600 });
    location = authorizationUrl.href;
    throw new AuthError('redirect_started', 'the user was sent to the authorization server');
  });
  const client = new Client(new StreamableHttpTransport(env.MCP_URL, { auth, standaloneStream: false }));
  try {
    await client.connect();
    const result = await client.callTool(tool, args);
    return Response.json({ text: result.text, isError: result.isError });
  } catch (error) {
    if (error instanceof AuthError && error.code === 'redirect_started' && location) {
      return Response.redirect(location, 302);
    }
    const { name, message } = /** @type {Error} */ (error);
    return Response.json({ error: `${name}: ${message}` }, { status: 502 });
  } finally {
    await client.close();
  }
}

/**
 * The redirect URI: the provider finds the pending authorization by `state`
 * under the caller's prefix in KV, checks `iss`, redeems the code and stores
 * the tokens there. A `state` another caller's flow issued is not found there:
 * refused, with nothing redeemed or stored, and that flow untouched.
 * @param {Request} request
 * @param {Env} env
 * @param {string} caller
 */
async function callback(request, env, caller) {
  const url = new URL(request.url);
  const key = returnKey(caller, url.searchParams.get('state') ?? '');
  const returnTo = await env.OAUTH_KV.get(key);
  const auth = providerFor(env, url.origin, caller, () => Promise.reject(new Error('not during a callback')));
  try {
    await auth.finishAuthorization(url);
  } catch (error) {
    return Response.json({ error: `${error.name}: ${error.message}` }, { status: 400 });
  }
  await env.OAUTH_KV.delete(key);
  return Response.redirect(returnTo ?? `${url.origin}/`, 302);
}

export default {
  /** @param {Request} request @param {Env} env */
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname === '/login') return login(request, env.SESSION_SECRET);
    if (pathname !== '/call' && pathname !== '/callback') return new Response('Not found', { status: 404 });
    const caller = await callerOf(request, env.SESSION_SECRET);
    if (caller === undefined) return Response.json({ error: 'sign in first (POST /login)' }, { status: 401 });
    return pathname === '/call' ? call(request, env, caller) : callback(request, env, caller);
  },
};
