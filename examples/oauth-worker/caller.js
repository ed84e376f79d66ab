// Who is calling: a session cookie signed with HMAC-SHA256 (Web Crypto) under
// the operator's SESSION_SECRET, issued by `POST /login` to whoever presents
// that secret. Here the tokens in KV are kept per caller, so nobody uses
// another's; examples/durable-task imports this module too, for its jobs.
// A trimmed copy of examples/worker-agent's sign-in (which also takes
// Cloudflare Access tokens): use that one for a deployment behind Access.

/** The cookie's name; `__Host-` keeps sibling subdomains from setting it. */
export const CALLER_COOKIE = '__Host-caller';

/** How long a session lasts, in seconds (8 hours). */
export const SESSION_TTL_SECONDS = 8 * 60 * 60;

/** What a caller's name may be: it goes into the store's key prefix (and names a caller's object). */
const NAME = /^[A-Za-z0-9_-]{1,64}$/;

const encoder = new TextEncoder();

/** @param {string | undefined} secret a key, or undefined when sessions are off (unset, or under 32 characters) */
async function keyOf(secret) {
  if (!secret || secret.length < 32) return undefined;
  const algorithm = { name: 'HMAC', hash: 'SHA-256' };
  return crypto.subtle.importKey('raw', encoder.encode(secret), algorithm, false, ['sign', 'verify']);
}

const hex = (bytes) => [...new Uint8Array(bytes)].map((byte) => byte.toString(16).padStart(2, '0')).join('');

/**
 * The caller a request's cookie names, once its MAC verifies (constant time) and it has not expired.
 * @param {Request} request
 * @param {string | undefined} secret
 * @returns {Promise<string | undefined>}
 */
export async function callerOf(request, secret) {
  const key = await keyOf(secret);
  const cookies = (request.headers.get('cookie') ?? '').split(';').map((pair) => pair.trim());
  const values = cookies.filter((pair) => pair.startsWith(`${CALLER_COOKIE}=`));
  if (!key || values.length !== 1 || (values[0]?.length ?? 0) > 512) return undefined;
  const [name = '', expiry = '', mac = ''] = (values[0] ?? '').slice(CALLER_COOKIE.length + 1).split('.');
  if (!NAME.test(name) || !/^\d{1,12}$/.test(expiry) || !/^[0-9a-f]{64}$/.test(mac)) return undefined;
  const signature = Uint8Array.from(mac.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
  if (!(await crypto.subtle.verify('HMAC', key, signature, encoder.encode(`${name}.${expiry}`)))) return undefined;
  return Number(expiry) > Date.now() / 1000 ? name : undefined;
}

/**
 * `POST /login` with `Authorization: Bearer <SESSION_SECRET>` and `?name=<caller>` sets the cookie.
 * Off (404) unless SESSION_SECRET is set: whoever holds it could sign a cookie anyway.
 * @param {Request} request
 * @param {string | undefined} secret
 */
export async function login(request, secret) {
  const key = await keyOf(secret);
  if (!key || request.method !== 'POST') return Response.json({ error: 'not found' }, { status: 404 });
  const presented = request.headers.get('authorization') ?? '';
  // Compared in constant time: the MAC of what was presented, verified against the real header.
  const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(presented));
  if (!(await crypto.subtle.verify('HMAC', key, mac, encoder.encode(`Bearer ${secret}`)))) {
    return Response.json({ error: 'login needs Authorization: Bearer <SESSION_SECRET>' }, { status: 401 });
  }
  const name = new URL(request.url).searchParams.get('name') ?? '';
  if (!NAME.test(name)) return Response.json({ error: '?name= must be 1-64 of A-Z a-z 0-9 _ -' }, { status: 400 });
  const expiry = Math.floor(Date.now() / 1000) + SESSION_TTL_SECONDS;
  const value = `${name}.${expiry}.${hex(await crypto.subtle.sign('HMAC', key, encoder.encode(`${name}.${expiry}`)))}`;
  // Lax: the authorization server's redirect back to /callback is a cross-site navigation.
  const cookie = `${CALLER_COOKIE}=${value}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=${SESSION_TTL_SECONDS}`;
  return Response.json({ name }, { headers: { 'set-cookie': cookie } });
}
