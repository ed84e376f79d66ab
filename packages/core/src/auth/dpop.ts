import { AuthError } from '../errors/auth-error.js';
import { encodeBase64url } from '../util/base64.js';
import { type SigningKey, signJwt } from './jwt.js';
import { randomToken } from './random.js';
import type { AuthorizationServerMetadata } from './schemas.js';

/**
 * DPoP settings (RFC 9449). `keyPair` is the proof key to use (an app that keeps
 * tokens across restarts keeps this key too, e.g. in IndexedDB, since its tokens
 * are bound to it); without one, a non-extractable ES256 pair is made per provider.
 */
export interface DpopOptions {
  /** The proof key (see above); a new non-extractable one when absent. */
  readonly keyPair?: CryptoKeyPair;
}

/** The public members of a JWK (RFC 7638 §3.2), the only ones a proof header may carry. */
const PUBLIC_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  EC: ['crv', 'kty', 'x', 'y'],
  RSA: ['e', 'kty', 'n'],
  OKP: ['crv', 'kty', 'x'],
};

const CURVES: Readonly<Record<string, string>> = { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' };

/** The JWS `alg` of a WebCrypto signing key (RFC 7518 §3, RFC 8037 §3.1). */
function algOf(key: CryptoKey): string {
  const algorithm = key.algorithm as KeyAlgorithm & { namedCurve?: string; hash?: { name: string } };
  const bits = algorithm.hash?.name.replace('SHA-', '') ?? '';
  switch (algorithm.name) {
    case 'ECDSA': {
      const alg = CURVES[algorithm.namedCurve ?? ''];
      if (alg) return alg;
      break;
    }
    case 'RSASSA-PKCS1-v1_5':
      return `RS${bits}`;
    case 'RSA-PSS':
      return `PS${bits}`;
    case 'Ed25519':
      return 'EdDSA';
  }
  throw new AuthError('dpop_failed', `a ${algorithm.name} key cannot sign DPoP proofs`);
}

/** The `htu` of a request (RFC 9449 §4.2): its URI without query and fragment. */
export function proofTarget(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/** The `ath` claim (RFC 9449 §4.2): base64url of the SHA-256 of the access token's ASCII bytes. */
export async function accessTokenHash(accessToken: string): Promise<string> {
  return encodeBase64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(accessToken)));
}

interface ProofKey {
  readonly signing: SigningKey;
  readonly jwk: Readonly<Record<string, string>>;
}

/**
 * One client's DPoP state: its proof key and the nonces servers handed out
 * (RFC 9449 §8 for authorization servers, §9 for resource servers), kept per
 * origin. Proofs are made fresh for each request: a new `jti` every time.
 */
export class DpopSession {
  /** The JWS algorithm of the proof key, known before the key exists. */
  readonly alg: string;
  readonly #keyPair: CryptoKeyPair | undefined;
  #key: Promise<ProofKey> | undefined;
  readonly #nonces = new Map<string, string>();

  constructor(options: DpopOptions = {}) {
    this.#keyPair = options.keyPair;
    this.alg = options.keyPair ? algOf(options.keyPair.privateKey) : 'ES256';
  }

  /**
   * Whether this authorization server takes our proofs: it lists our `alg` in
   * `dpop_signing_alg_values_supported` (RFC 9449 §5.1), or lists nothing.
   */
  acceptedBy(metadata: AuthorizationServerMetadata): boolean {
    const supported = metadata.dpop_signing_alg_values_supported;
    return supported === undefined || supported.includes(this.alg);
  }

  /**
   * A proof JWT for one request (RFC 9449 §4.2): `typ` dpop+jwt and the public
   * key in the header; `jti`, `htm`, `htu` and `iat`, plus `ath` when it carries an
   * access token and `nonce` when the server at that origin gave one.
   */
  async proof(method: string, url: URL, accessToken?: string): Promise<string> {
    const key = await this.#proofKey();
    const nonce = this.nonceFor(url);
    return signJwt(
      key.signing,
      {
        jti: randomToken(16),
        htm: method.toUpperCase(),
        htu: proofTarget(url),
        iat: Math.floor(Date.now() / 1000),
        ...(accessToken !== undefined && { ath: await accessTokenHash(accessToken) }),
        ...(nonce !== undefined && { nonce }),
      },
      { typ: 'dpop+jwt', jwk: key.jwk },
    );
  }

  /** The nonce the server at `url`'s origin asked for last, if any. */
  nonceFor(url: URL): string | undefined {
    return this.#nonces.get(url.origin);
  }

  /** Records a `DPoP-Nonce` a response carries (an error or a success may); returns it. */
  observe(response: Response, url: URL): string | undefined {
    const nonce = response.headers.get('dpop-nonce')?.trim();
    if (nonce) this.#nonces.set(url.origin, nonce);
    return nonce || undefined;
  }

  #proofKey(): Promise<ProofKey> {
    this.#key ??= this.#makeKey();
    return this.#key;
  }

  async #makeKey(): Promise<ProofKey> {
    const pair =
      this.#keyPair ??
      // Non-extractable: the private key never leaves WebCrypto (the public half always may).
      ((await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
        'sign',
        'verify',
      ])) as CryptoKeyPair);
    const exported = (await crypto.subtle.exportKey('jwk', pair.publicKey)) as Record<string, unknown>;
    const members = PUBLIC_MEMBERS[String(exported.kty)] ?? [];
    const jwk = Object.fromEntries(members.map((name) => [name, String(exported[name])]));
    return { signing: { key: pair.privateKey, alg: this.alg }, jwk };
  }
}
