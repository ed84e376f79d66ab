import { decodeBase64, encodeBase64url } from '../util/base64.js';

type SigningAlgorithm = EcKeyImportParams | RsaHashedImportParams | Algorithm;

/** WebCrypto parameters per JWS `alg` (RFC 7518 §3). */
function algorithmOf(alg: string): {
  importParams: SigningAlgorithm;
  signParams: AlgorithmIdentifier | EcdsaParams | RsaPssParams;
} {
  const hash = `SHA-${alg.slice(2)}`;
  switch (alg) {
    case 'ES256':
    case 'ES384':
    case 'ES512': {
      const namedCurve = alg === 'ES512' ? 'P-521' : `P-${alg.slice(2)}`;
      return { importParams: { name: 'ECDSA', namedCurve }, signParams: { name: 'ECDSA', hash } };
    }
    case 'RS256':
    case 'RS384':
    case 'RS512':
      return { importParams: { name: 'RSASSA-PKCS1-v1_5', hash }, signParams: { name: 'RSASSA-PKCS1-v1_5' } };
    case 'PS256':
    case 'PS384':
    case 'PS512':
      return {
        importParams: { name: 'RSA-PSS', hash },
        signParams: { name: 'RSA-PSS', saltLength: Number(alg.slice(2)) / 8 },
      };
    case 'EdDSA':
      return { importParams: { name: 'Ed25519' }, signParams: { name: 'Ed25519' } };
    default:
      throw new TypeError(`unsupported JWS algorithm ${alg}`);
  }
}

/** A private key ready to sign JWS with `alg`. */
export interface SigningKey {
  readonly key: CryptoKey;
  readonly alg: string;
}

/**
 * Imports a private key for JWS signing: a private JWK, or a PKCS#8 PEM
 * (`-----BEGIN PRIVATE KEY-----`). WebCrypto only, so it runs in every runtime.
 */
export async function importSigningKey(key: JsonWebKey | string, alg: string): Promise<SigningKey> {
  const { importParams } = algorithmOf(alg);
  if (typeof key === 'string') {
    const body = key.replace(/-----(BEGIN|END) PRIVATE KEY-----/g, '').replace(/\s+/g, '');
    const der = decodeBase64(body);
    return { key: await crypto.subtle.importKey('pkcs8', new Uint8Array(der), importParams, false, ['sign']), alg };
  }
  const { key_ops: _ops, ext: _ext, ...jwk } = key;
  return { key: await crypto.subtle.importKey('jwk', jwk, importParams, false, ['sign']), alg };
}

/**
 * Signs a compact JWS (RFC 7515) over JSON claims. ECDSA signatures come out of
 * WebCrypto as r‖s, which is already the JWS form (RFC 7518 §3.4).
 */
export async function signJwt(
  signing: SigningKey,
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
): Promise<string> {
  const { signParams } = algorithmOf(signing.alg);
  const input = `${encodeBase64url(JSON.stringify({ alg: signing.alg, typ: 'JWT', ...header }))}.${encodeBase64url(JSON.stringify(claims))}`;
  const signature = await crypto.subtle.sign(signParams, signing.key, new TextEncoder().encode(input));
  return `${input}.${encodeBase64url(signature)}`;
}
