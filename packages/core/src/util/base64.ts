/**
 * Standard base64 (RFC 4648 §4) of bytes, or of a string's UTF-8 bytes, with web
 * standards only, so the same code runs in browsers, workerd, Deno, Bun and Node.
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

/** Decodes standard base64 (RFC 4648 §4) to bytes. Throws on invalid input. */
export function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
