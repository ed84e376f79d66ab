// Who is calling: the one place the Worker learns a user, always from a
// verified credential (a Cloudflare Access token, or a session cookie signed
// under SESSION_SECRET), never from the path, the query or the body.
import { ACCESS_HEADER, accessConfig, verifyAccessToken } from './access-jwt.js';
import { cookieValues, SESSION_COOKIE, sessionKey, verifySession } from './session-cookie.js';

/** Longest credential read (an Access token, a session cookie), in characters: a longer one is a `401` unread. */
export const MAX_CREDENTIAL_CHARS = 8192;

/**
 * @typedef {object} IdentityEnv
 * @property {string} [ACCESS_TEAM_DOMAIN] `https://<team>.cloudflareaccess.com`
 * @property {string} [ACCESS_AUD] the Access application's AUD tag
 * @property {string} [SESSION_SECRET] turns on session cookies and `POST /login` (at least 32 characters)
 */

/**
 * The caller's user, named for its Durable Object (`access:<sub>` or `session:<name>`, so the two kinds
 * never share an object), or the answer to give instead (`401`, or `500` when nothing is configured).
 * An Access token, when Access is configured and the request has one, decides alone: a bad one is not
 * retried as a cookie.
 * @param {Request} request
 * @param {IdentityEnv} env
 * @returns {Promise<{ user: string } | { status: number, error: string }>}
 */
export async function identify(request, env) {
  const access = accessConfig(env);
  const session = await sessionKey(env.SESSION_SECRET);
  if ('misconfigured' in access) return { status: 500, error: access.misconfigured };
  if ('misconfigured' in session) return { status: 500, error: session.misconfigured };
  if ('off' in access && 'off' in session) {
    return { status: 500, error: 'no sign-in is configured: set ACCESS_TEAM_DOMAIN and ACCESS_AUD, or SESSION_SECRET' };
  }

  const token = request.headers.get(ACCESS_HEADER);
  if (token !== null && 'issuer' in access) {
    if (token.length > MAX_CREDENTIAL_CHARS)
      return refused(`the Access token is over ${MAX_CREDENTIAL_CHARS} characters`);
    const verified = await verifyAccessToken(token, access);
    return 'sub' in verified
      ? { user: `access:${verified.sub}` }
      : refused(`the Access token was refused (${verified.refused})`);
  }

  if ('key' in session) {
    const values = cookieValues(request, SESSION_COOKIE);
    // Two session cookies would let whoever planted one choose which user acts.
    if (values.length > 1) return refused('more than one session cookie');
    const [value] = values;
    if (value !== undefined) {
      if (value.length > MAX_CREDENTIAL_CHARS)
        return refused(`the session cookie is over ${MAX_CREDENTIAL_CHARS} characters`);
      const user = await verifySession(session.key, value, Math.floor(Date.now() / 1000));
      return user === undefined
        ? refused('the session cookie is not valid, or has expired')
        : { user: `session:${user}` };
    }
  }
  return refused('sign in first');
}

/** @param {string} error */
const refused = (error) => ({ status: 401, error });
