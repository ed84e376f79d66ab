/**
 * Decodes standard base64 (RFC 4648 §4) to bytes with web standards only, so the
 * same code runs in browsers, workerd, Deno, Bun and Node. Throws on invalid input.
 */
export function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
