// A stand-in for a Cloudflare Access team: its signing keys served where Access
// serves them (`/cdn-cgi/access/certs` on the team domain), and tokens signed
// as Access signs them (RS256, `iss` the team domain, `aud` the application's tag).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { base64url, exportJWK, exportSPKI, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

export interface AccessTeam {
  /** The team domain, `http://127.0.0.1:<port>`: the tokens' issuer. */
  readonly domain: string;
  /** The application's AUD tag. */
  readonly audience: string;
  /** A token as Access would sign it for `sub`; `claims` and `options` change it. */
  token(
    sub: string,
    claims?: JWTPayload,
    options?: { expiresIn?: string | number; unlistedKey?: boolean },
  ): Promise<string>;
  /** The public key, PEM-encoded: what an HS256 confusion attack would use as the secret. */
  readonly publicPem: string;
  /** Requests for the key set so far. */
  readonly keyRequests: () => number;
  close(): Promise<void>;
}

export const AUDIENCE = 'aud-tag-of-the-agent-application';

export async function startAccessTeam(): Promise<AccessTeam> {
  const listed = await generateKeyPair('RS256', { extractable: true });
  // Signs tokens no key in the set verifies, as an attacker with a key of their own would.
  const unlisted = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(listed.publicKey)), kid: 'team-key-1', alg: 'RS256', use: 'sig' };
  let keyRequests = 0;
  const server = createServer((request, response) => {
    if (request.url !== '/cdn-cgi/access/certs') {
      response.writeHead(404).end();
      return;
    }
    keyRequests++;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const domain = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    domain,
    audience: AUDIENCE,
    publicPem: await exportSPKI(listed.publicKey),
    keyRequests: () => keyRequests,
    token(sub, claims = {}, { expiresIn = '5m', unlistedKey = false } = {}) {
      // The claims last, so a test can replace the issuer, the audience or the subject.
      const payload = { type: 'app', email: `${sub}@example.com`, iss: domain, aud: [AUDIENCE], sub, ...claims };
      return new SignJWT(payload)
        .setProtectedHeader({ alg: 'RS256', kid: 'team-key-1' })
        .setIssuedAt()
        .setExpirationTime(expiresIn)
        .sign(unlistedKey ? unlisted.privateKey : listed.privateKey);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A token with `alg: none` and no signature, claiming `payload`. */
export function unsignedToken(payload: JWTPayload): string {
  const part = (value: object) => base64url.encode(JSON.stringify(value));
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(payload)}.`;
}
