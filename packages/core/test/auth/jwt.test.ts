import { describe, expect, it } from 'vitest';
import { importSigningKey, signJwt } from '../../src/auth/jwt.js';

const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

async function verifies(
  jwt: string,
  publicKey: CryptoKey,
  algorithm: EcdsaParams | AlgorithmIdentifier,
): Promise<boolean> {
  const [header = '', claims = '', signature = ''] = jwt.split('.');
  return crypto.subtle.verify(
    algorithm,
    publicKey,
    Buffer.from(signature, 'base64url'),
    new TextEncoder().encode(`${header}.${claims}`),
  );
}

describe('JWT signing for private_key_jwt', () => {
  it('signs ES256 with a private JWK, verifiable with the public key', async () => {
    const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    const jwk = await crypto.subtle.exportKey('jwk', pair.privateKey);
    const jwt = await signJwt(
      await importSigningKey(jwk, 'ES256'),
      { iss: 'client', aud: 'https://as' },
      { kid: 'k1' },
    );
    const [header = '', claims = ''] = jwt.split('.');
    expect(decode(header)).toEqual({ alg: 'ES256', typ: 'JWT', kid: 'k1' });
    expect(decode(claims)).toEqual({ iss: 'client', aud: 'https://as' });
    expect(await verifies(jwt, pair.publicKey, { name: 'ECDSA', hash: 'SHA-256' })).toBe(true);
  });

  it('signs RS256 with a PKCS#8 PEM key', async () => {
    const pair = await crypto.subtle.generateKey(
      { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
      true,
      ['sign', 'verify'],
    );
    const der = Buffer.from(await crypto.subtle.exportKey('pkcs8', pair.privateKey)).toString('base64');
    const pem = `-----BEGIN PRIVATE KEY-----\n${der.replace(/(.{64})/g, '$1\n')}\n-----END PRIVATE KEY-----\n`;
    const jwt = await signJwt(await importSigningKey(pem, 'RS256'), { sub: 'client' });
    expect(await verifies(jwt, pair.publicKey, { name: 'RSASSA-PKCS1-v1_5' })).toBe(true);
  });
});
