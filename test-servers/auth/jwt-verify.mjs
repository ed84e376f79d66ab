/**
 * Verifies a compact JWS (a `private_key_jwt` client assertion, RFC 7523 § 3)
 * against a JWK set with `crypto.subtle`. JWS ES256 signatures are the raw
 * r‖s form WebCrypto's ECDSA uses, so no DER conversion is needed.
 */

/** @type {Record<string, { import: AlgorithmIdentifier | RsaHashedImportParams | EcKeyImportParams, verify: AlgorithmIdentifier | EcdsaParams | RsaPssParams }>} */
const ALGORITHMS = {
  ES256: { import: { name: 'ECDSA', namedCurve: 'P-256' }, verify: { name: 'ECDSA', hash: 'SHA-256' } },
  ES384: { import: { name: 'ECDSA', namedCurve: 'P-384' }, verify: { name: 'ECDSA', hash: 'SHA-384' } },
  RS256: { import: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, verify: { name: 'RSASSA-PKCS1-v1_5' } },
  PS256: { import: { name: 'RSA-PSS', hash: 'SHA-256' }, verify: { name: 'RSA-PSS', saltLength: 32 } },
};

/**
 * @param {string} jwt
 * @param {{ keys: Record<string, unknown>[] }} jwks
 * @returns {Promise<{ ok: true, header: Record<string, unknown>, claims: Record<string, unknown> } | { ok: false, reason: string }>}
 */
export async function verifyJwt(jwt, jwks) {
  const parts = jwt.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'not a compact JWS' };
  const [encodedHeader = '', encodedClaims = '', encodedSignature = ''] = parts;
  let header;
  let claims;
  try {
    header = JSON.parse(Buffer.from(encodedHeader, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(encodedClaims, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'header or claims are not JSON' };
  }
  const algorithm = ALGORITHMS[header?.alg];
  if (algorithm === undefined) return { ok: false, reason: `unsupported alg ${String(header?.alg)}` };
  const candidates = jwks.keys.filter((key) => header.kid === undefined || key.kid === header.kid);
  const data = new TextEncoder().encode(`${encodedHeader}.${encodedClaims}`);
  const signature = Buffer.from(encodedSignature, 'base64url');
  for (const jwk of candidates) {
    try {
      const key = await crypto.subtle.importKey('jwk', /** @type {JsonWebKey} */ (jwk), algorithm.import, false, [
        'verify',
      ]);
      if (await crypto.subtle.verify(algorithm.verify, key, signature, data)) return { ok: true, header, claims };
    } catch {
      // A key of another type or curve: try the next one.
    }
  }
  return { ok: false, reason: 'no key in the client JWKS verifies the signature' };
}
