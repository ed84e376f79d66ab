// `POST /login`: the operator's way to get a session cookie for a user, for
// local use and tests. Off (404) unless SESSION_SECRET is set, and guarded by
// that same secret: whoever holds it can already sign a cookie for any user,
// so the route gives nobody more than they have.
import { envLimit } from './env-limit.js';
import { MAX_CREDENTIAL_CHARS } from './identity.js';
import { parseJson, readCapped } from './request-body.js';
import { isSecret, SESSION_COOKIE, SESSION_TTL_SECONDS, sessionKey, signSession, USER_NAME } from './session-cookie.js';

/** Largest login body read, in bytes (`{"user": "<name>"}` is far smaller); past it, 413. */
export const MAX_LOGIN_BODY_BYTES = 1024;

/**
 * `POST /login` with `Authorization: Bearer <SESSION_SECRET>` and `{"user": "<name>"}` answers
 * `{user, expiresAt}` and sets the session cookie.
 * @param {Request} request
 * @param {{ SESSION_SECRET?: string, SESSION_TTL_SECONDS?: string }} env
 */
export async function login(request, env) {
  const session = await sessionKey(env.SESSION_SECRET);
  if ('off' in session) return Response.json({ error: 'not found' }, { status: 404 });
  if ('misconfigured' in session) return Response.json({ error: session.misconfigured }, { status: 500 });
  if (request.method !== 'POST') return Response.json({ error: 'POST only' }, { status: 405 });

  const presented = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
  if (
    presented === undefined ||
    presented.length > MAX_CREDENTIAL_CHARS ||
    !(await isSecret(session.key, env.SESSION_SECRET ?? '', presented))
  ) {
    return Response.json({ error: 'login needs Authorization: Bearer <SESSION_SECRET>' }, { status: 401 });
  }
  const text = await readCapped(request, MAX_LOGIN_BODY_BYTES);
  if (text === undefined) return Response.json({ error: `body over ${MAX_LOGIN_BODY_BYTES} bytes` }, { status: 413 });
  const user = parseJson(text)?.user;
  if (typeof user !== 'string' || !USER_NAME.test(user)) {
    return Response.json({ error: 'the body must be {"user": "<1-64 of A-Z a-z 0-9 _ ->"}' }, { status: 400 });
  }

  const ttl = envLimit(env.SESSION_TTL_SECONDS, SESSION_TTL_SECONDS);
  const expiresAt = Math.floor(Date.now() / 1000) + ttl;
  const cookie = `${SESSION_COOKIE}=${await signSession(session.key, user, expiresAt)}`;
  // Lax, not Strict: the authorization server's redirect to /callback is a cross-site navigation.
  const attributes = `Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=${ttl}`;
  return Response.json(
    { user, expiresAt: new Date(expiresAt * 1000).toISOString() },
    { headers: { 'set-cookie': `${cookie}; ${attributes}` } },
  );
}
