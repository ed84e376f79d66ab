// A Cloudflare Worker that calls a protected MCP server for its user, with the
// OAuth state in KV (binding OAUTH_KV) across invocations:
//
//   GET /call?tool=echo&text=hi   calls the tool; if the server wants authorization,
//                                 answers 302 to the authorization server instead
//   GET /callback?code=…&state=…  where the authorization server sends the user back:
//                                 finishes the authorization, then 302 to the /call that
//                                 started it
//
// The server's URL is the MCP_URL variable. The Worker registers itself (DCR) with
// redirect URI <worker origin>/callback; a pre-registered client would go in `clients`.
import { AuthError, Client, OAuthProvider, StreamableHttpTransport } from '../../packages/core/dist/core.bundle.js';
import { kvOAuthStore } from './kv-oauth-store.js';

/** Where `/callback` sends the user once done, per authorization `state`. */
const returnKey = (state) => `return:${state}`;

/**
 * @typedef {object} Env
 * @property {string} MCP_URL
 * @property {KVNamespace} OAUTH_KV
 */

/**
 * A provider for this invocation: all it knows lives in KV.
 * @param {Env} env
 * @param {string} origin this Worker's origin
 * @param {(url: URL) => Promise<string>} authorize
 */
function providerFor(env, origin, authorize) {
  return new OAuthProvider({
    store: kvOAuthStore(env.OAUTH_KV),
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
 */
async function call(request, env) {
  const url = new URL(request.url);
  const tool = url.searchParams.get('tool');
  if (!tool) return Response.json({ error: 'missing ?tool=' }, { status: 400 });
  const args = Object.fromEntries([...url.searchParams].filter(([name]) => name !== 'tool'));
  /** @type {string | undefined} */
  let location;
  const auth = providerFor(env, url.origin, async (authorizationUrl) => {
    const state = authorizationUrl.searchParams.get('state') ?? '';
    await env.OAUTH_KV.put(returnKey(state), url.href, { expirationTtl: 600 });
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
 * in KV, checks `iss`, redeems the code and stores the tokens there.
 * @param {Request} request
 * @param {Env} env
 */
async function callback(request, env) {
  const url = new URL(request.url);
  const key = returnKey(url.searchParams.get('state') ?? '');
  const returnTo = await env.OAUTH_KV.get(key);
  const auth = providerFor(env, url.origin, () => Promise.reject(new Error('not during a callback')));
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
  fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname === '/call') return call(request, env);
    if (pathname === '/callback') return callback(request, env);
    return new Response('Not found', { status: 404 });
  },
};
