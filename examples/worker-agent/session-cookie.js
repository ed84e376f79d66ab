// The local way to say who you are: a session cookie signed with HMAC-SHA256
// (Web Crypto) under the operator's SESSION_SECRET, issued by `POST /login`.
// Both are off unless SESSION_SECRET is set. Behind Cloudflare Access, leave
// it unset: Access then is the only way in.
import { base64url } from 'jose';

/** The cookie's name. `__Host-` makes browsers refuse it from a sibling subdomain or without `Secure`. */
export const SESSION_COOKIE = '__Host-agent_session';

/** Shortest SESSION_SECRET accepted, in characters: a shorter one turns sessions off with a `500`. */
export const MIN_SECRET_CHARS = 32;

/** How long a session lasts, in seconds (8 hours); the `SESSION_TTL_SECONDS` variable changes it. */
export const SESSION_TTL_SECONDS = 8 * 60 * 60;

/** What a user name may be at login: it names the user's Durable Object. */
export const USER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Prefix of the signed bytes, so a MAC made for another purpose under the same key is never a session. */
const PURPOSE = 'agent-session-v1.';

const encoder = new TextEncoder();

/**
 * The HMAC key of `secret`, or a reason why sessions are off or misconfigured.
 * @param {string | undefined} secret
 * @returns {Promise<{ key: CryptoKey } | { off: true } | { misconfigured: string }>}
 */
export async function sessionKey(secret) {
  if (secret === undefined || secret === '') return { off: true };
  if (secret.length < MIN_SECRET_CHARS) {
    return { misconfigured: `SESSION_SECRET must be at least ${MIN_SECRET_CHARS} characters` };
  }
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
  return { key };
}

/**
 * A signed cookie value for `user`, valid until `expiresAt` (seconds since the epoch).
 * @param {CryptoKey} key
 * @param {string} user
 * @param {number} expiresAt
 */
export async function signSession(key, user, expiresAt) {
  const payload = base64url.encode(JSON.stringify({ sub: user, exp: expiresAt }));
  const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(PURPOSE + payload));
  return `${payload}.${base64url.encode(new Uint8Array(mac))}`;
}

/**
 * The user a cookie value names, or undefined when its MAC does not verify,
 * it has expired, or its payload is not what `signSession` writes. The MAC is
 * checked first (in constant time, by `crypto.subtle.verify`): nothing of an
 * unverified payload is parsed.
 * @param {CryptoKey} key
 * @param {string} value
 * @param {number} now seconds since the epoch
 * @returns {Promise<string | undefined>}
 */
export async function verifySession(key, value, now) {
  const parts = value.split('.');
  if (parts.length !== 2) return undefined;
  const [payload = '', mac = ''] = parts;
  let signature;
  try {
    signature = base64url.decode(mac);
  } catch {
    return undefined;
  }
  if (!(await crypto.subtle.verify('HMAC', key, signature, encoder.encode(PURPOSE + payload)))) return undefined;
  const { sub, exp } = parseClaims(payload) ?? {};
  if (typeof sub !== 'string' || !USER_NAME.test(sub) || !Number.isInteger(exp) || exp <= now) return undefined;
  return sub;
}

/**
 * Whether `presented` is the secret `key` was made from, compared in constant
 * time: the MAC of `presented` is verified against `secret` by `crypto.subtle.verify`.
 * @param {CryptoKey} key
 * @param {string} secret
 * @param {string} presented
 */
export async function isSecret(key, secret, presented) {
  const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(`login.${presented}`));
  return crypto.subtle.verify('HMAC', key, mac, encoder.encode(`login.${secret}`));
}

/**
 * The values of every cookie named `name` in the request (a client may send several).
 * @param {Request} request
 * @param {string} name
 */
export function cookieValues(request, name) {
  const header = request.headers.get('cookie') ?? '';
  return header
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair.startsWith(`${name}=`))
    .map((pair) => pair.slice(name.length + 1));
}

/**
 * The claims of a verified payload (written by `signSession`, so a failure means a foreign key signed it).
 * @param {string} payload
 * @returns {{ sub?: unknown, exp?: unknown } | undefined}
 */
function parseClaims(payload) {
  try {
    return JSON.parse(new TextDecoder().decode(base64url.decode(payload)));
  } catch {
    return undefined;
  }
}
