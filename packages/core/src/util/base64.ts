/**
 * Standard base64 (RFC 4648 §4) of bytes, or of a string's UTF-8 bytes, with web
 * standards only, so the same code runs in browsers, workerd, Deno, Bun and Node.
 * (Decoding is `decode-base64.ts`: only on-demand code decodes, while this runs on
 * every program's path, and a bundler keeps a whole module in one chunk.)
 */
export function encodeBase64(data: string | Uint8Array | ArrayBuffer): string {
  let binary = '';
  for (const byte of typeof data === 'string' ? new TextEncoder().encode(data) : new Uint8Array(data)) {
    binary += String.fromCharCode(byte);
  }
  return btoa(binary);
}

/** Base64url without padding (RFC 4648 §5), as JOSE and PKCE use it. */
export function encodeBase64url(data: string | Uint8Array | ArrayBuffer): string {
  return encodeBase64(data).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
