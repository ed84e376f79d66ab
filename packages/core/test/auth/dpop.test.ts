import { describe, expect, it } from 'vitest';
import { accessTokenHash, DpopSession, proofTarget } from '../../src/auth/dpop.js';

type Json = Record<string, unknown>;
const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Json;

const VERIFY: Record<string, { import: EcKeyImportParams | RsaHashedImportParams; verify: EcdsaParams | Algorithm }> = {
  ES256: { import: { name: 'ECDSA', namedCurve: 'P-256' }, verify: { name: 'ECDSA', hash: 'SHA-256' } },
  RS256: { import: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, verify: { name: 'RSASSA-PKCS1-v1_5' } },
};

/** Checks a proof as a resource server does (RFC 9449 §4.3): typ, alg, public JWK, signature by that JWK. */
async function verifyProof(proof: string): Promise<{ header: Json; claims: Json }> {
  const [header = '', claims = '', signature = ''] = proof.split('.');
  const head = decode(header);
  expect(head.typ).toBe('dpop+jwt');
  const jwk = head.jwk as JsonWebKey;
  expect(jwk.d).toBeUndefined();
  const params = VERIFY[String(head.alg)];
  if (!params) throw new Error(`unexpected alg ${String(head.alg)}`);
  const key = await crypto.subtle.importKey('jwk', jwk, params.import, false, ['verify']);
  const valid = await crypto.subtle.verify(
    params.verify,
    key,
    Buffer.from(signature, 'base64url'),
    new TextEncoder().encode(`${header}.${claims}`),
  );
  expect(valid).toBe(true);
  return { header: head, claims: decode(claims) };
}

describe('DPoP proofs (RFC 9449)', () => {
  it('signs a proof with a generated ES256 key that verifies with the public JWK in its header', async () => {
    const dpop = new DpopSession();
    const before = Math.floor(Date.now() / 1000);
    const { header, claims } = await verifyProof(await dpop.proof('post', new URL('https://as.example/token')));
    expect(header.alg).toBe('ES256');
    expect(Object.keys(header.jwk as Json).sort()).toEqual(['crv', 'kty', 'x', 'y']);
    expect(claims).toMatchObject({ htm: 'POST', htu: 'https://as.example/token' });
    expect(claims.iat).toBeGreaterThanOrEqual(before);
    expect(claims).not.toHaveProperty('ath');
    expect(claims).not.toHaveProperty('nonce');
  });

  it('gives every proof a new jti, with the same key', async () => {
    const dpop = new DpopSession();
    const url = new URL('https://mcp.example/mcp');
    const first = await verifyProof(await dpop.proof('POST', url));
    const second = await verifyProof(await dpop.proof('POST', url));
    expect(first.claims.jti).not.toBe(second.claims.jti);
    expect(first.header.jwk).toEqual(second.header.jwk);
  });

  it('leaves query and fragment out of htu', async () => {
    expect(proofTarget(new URL('https://mcp.example/mcp?session=1#part'))).toBe('https://mcp.example/mcp');
    const dpop = new DpopSession();
    const { claims } = await verifyProof(await dpop.proof('GET', new URL('https://MCP.example:443/a/b?x=1#y')));
    expect(claims.htu).toBe('https://mcp.example/a/b');
  });

  it('binds resource requests to the token with ath = base64url(sha256(token))', async () => {
    // RFC 9449 §7.1's example access token and its hash.
    expect(await accessTokenHash('Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU')).toBe(
      'fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo',
    );
    const dpop = new DpopSession();
    const { claims } = await verifyProof(await dpop.proof('POST', new URL('https://mcp.example/mcp'), 'token-1'));
    expect(claims.ath).toBe(await accessTokenHash('token-1'));
  });

  it('carries the nonce the server at that origin sent last, and only there', async () => {
    const dpop = new DpopSession();
    const at = new URL('https://as.example/token');
    const observed = dpop.observe(new Response(null, { status: 400, headers: { 'DPoP-Nonce': 'n-1' } }), at);
    expect(observed).toBe('n-1');
    expect(dpop.observe(new Response(null), at)).toBeUndefined();
    const atServer = await verifyProof(await dpop.proof('POST', new URL('https://as.example/other')));
    const elsewhere = await verifyProof(await dpop.proof('POST', new URL('https://mcp.example/mcp')));
    expect(atServer.claims.nonce).toBe('n-1');
    expect(elsewhere.claims).not.toHaveProperty('nonce');
  });

  it('signs with a key pair the app supplies, taking its algorithm (RS256)', async () => {
    const keyPair = (await crypto.subtle.generateKey(
      { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    )) as CryptoKeyPair;
    const dpop = new DpopSession({ keyPair });
    expect(dpop.alg).toBe('RS256');
    expect(dpop.acceptedBy({ issuer: 'x', token_endpoint: 'x', dpop_signing_alg_values_supported: ['ES256'] })).toBe(
      false,
    );
    const { header } = await verifyProof(await dpop.proof('POST', new URL('https://as.example/token')));
    expect(header.alg).toBe('RS256');
    expect(Object.keys(header.jwk as Json).sort()).toEqual(['e', 'kty', 'n']);
  });
});
