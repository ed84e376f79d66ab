/** Base64url without padding (RFC 4648 §5), as JOSE and PKCE use it. */
export function base64url(bytes: Uint8Array | ArrayBuffer): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let binary = '';
  for (const byte of view) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Base64url of UTF-8 text (JWT header and claims). */
export function base64urlText(text: string): string {
  return base64url(new TextEncoder().encode(text));
}

/** `bytes` random bytes from the platform CSPRNG, base64url-encoded (state, PKCE verifier, jti). */
export function randomToken(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}
