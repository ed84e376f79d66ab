// Who Cloudflare Access says the caller is. Access signs a JWT for every
// request it let through (the `Cf-Access-Jwt-Assertion` header); a Worker must
// verify it, since a request that reached the Worker some other way (its
// workers.dev address, another route) can carry any header it likes.
import { createRemoteJWKSet, jwtVerify } from 'jose';

/** The header Access puts its token in. */
export const ACCESS_HEADER = 'cf-access-jwt-assertion';

/** The team's signing keys, one fetcher per team, kept for the isolate's life (jose caches and refreshes them). */
const keySets = new Map();

/**
 * Access configuration from `ACCESS_TEAM_DOMAIN` (`https://<team>.cloudflareaccess.com`, the tokens' issuer)
 * and `ACCESS_AUD` (the application's AUD tag): both, neither (Access off), or a misconfiguration.
 * A plain `http:` team domain is accepted on loopback only, for tests.
 * @param {{ ACCESS_TEAM_DOMAIN?: string, ACCESS_AUD?: string }} env
 * @returns {{ issuer: string, audience: string } | { off: true } | { misconfigured: string }}
 */
export function accessConfig({ ACCESS_TEAM_DOMAIN: team, ACCESS_AUD: audience }) {
  if (!team && !audience) return { off: true };
  if (!team || !audience) return { misconfigured: 'set both ACCESS_TEAM_DOMAIN and ACCESS_AUD, or neither' };
  const url = URL.canParse(team) ? new URL(team) : undefined;
  const loopback = url?.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (!url || (url.protocol !== 'https:' && !loopback) || url.href !== `${url.origin}/`) {
    return { misconfigured: 'ACCESS_TEAM_DOMAIN must be https://<team>.cloudflareaccess.com' };
  }
  return { issuer: url.origin, audience };
}

/**
 * The Access user id (`sub`) of a token, once its RS256 signature verifies
 * against the team's keys and its issuer, audience and expiry hold; or why not.
 * Only RS256 is accepted, so neither `alg: none` nor an HMAC keyed with the
 * public key can pass. A service token (empty `sub`) is refused: it is no user.
 * @param {string} token
 * @param {{ issuer: string, audience: string }} config
 * @returns {Promise<{ sub: string } | { refused: string }>}
 */
export async function verifyAccessToken(token, { issuer, audience }) {
  let keys = keySets.get(issuer);
  if (!keys) {
    keys = createRemoteJWKSet(new URL('/cdn-cgi/access/certs', issuer));
    keySets.set(issuer, keys);
  }
  try {
    const { payload } = await jwtVerify(token, keys, {
      issuer,
      audience,
      algorithms: ['RS256'],
      requiredClaims: ['exp', 'sub'],
    });
    if (typeof payload.sub !== 'string' || payload.sub === '') return { refused: 'the token names no user' };
    return { sub: payload.sub };
  } catch (error) {
    const { code = 'ERR_JWT_INVALID' } = /** @type {{ code?: string }} */ (error);
    return { refused: code };
  }
}
