import { encodeBase64url } from '../util/base64.js';

/** `bytes` random bytes from the platform CSPRNG, base64url-encoded (state, PKCE verifier, jti). */
export function randomToken(bytes = 32): string {
  return encodeBase64url(crypto.getRandomValues(new Uint8Array(bytes)));
}
