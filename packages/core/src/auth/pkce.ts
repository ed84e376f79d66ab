import { encodeBase64url } from '../util/base64.js';
import { randomToken } from './random.js';

/** A PKCE pair (RFC 7636): the verifier stays with the client, the challenge goes in the authorization URL. */
export interface Pkce {
  readonly verifier: string;
  readonly challenge: string;
  readonly method: 'S256';
}

/** `BASE64URL(SHA256(ASCII(verifier)))` (RFC 7636 §4.2). */
export async function s256Challenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return encodeBase64url(digest);
}

/**
 * A fresh pair per authorization request: 32 random bytes give a 43-character
 * verifier (RFC 7636 §4.1), S256 always (MCP 2025-11-25 "Authorization Code Protection").
 */
export async function createPkce(): Promise<Pkce> {
  const verifier = randomToken(32);
  return { verifier, challenge: await s256Challenge(verifier), method: 'S256' };
}
