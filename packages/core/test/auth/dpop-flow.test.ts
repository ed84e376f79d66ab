import { afterEach, describe, expect, it } from 'vitest';
import { Client, type OAuthOptions, OAuthProvider, StreamableHttpTransport } from '../../src/index.js';
import { problems, statusOf, useScenarios } from './conformance-servers.js';

const scenario = useScenarios();
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** A headless user: follows the authorization URL (the conformance AS approves at once) and returns the callback. */
const options: OAuthOptions = {
  redirectUri: 'http://localhost:3000/callback',
  authorize: async (url) => {
    const response = await fetch(url, { redirect: 'manual' });
    await response.body?.cancel();
    return new URL(response.headers.get('location') ?? '', url);
  },
};

async function connect(url: string, extra: Partial<OAuthOptions> = {}): Promise<Client> {
  const auth = new OAuthProvider({ ...options, ...extra });
  const client = new Client(new StreamableHttpTransport(url, { auth }), { requestTimeout: 10_000 });
  clients.push(client);
  await client.connect();
  return client;
}

describe('DPoP-bound tokens against the conformance servers (RFC 9449)', () => {
  it('uses DPoP when the server challenges with it, honouring the nonces of the AS and of the server', async () => {
    const run = await scenario('auth/dpop-nonce');
    const client = await connect(run.url);
    await client.listTools();
    await client.callTool('test-tool', {});
    await client.close();
    const checks = await run.checks();
    expect(problems(checks)).toEqual([]);
    for (const id of [
      'sep-1932-client-token-request-proof',
      'sep-1932-client-as-nonce',
      'sep-1932-client-rs-nonce',
      'sep-1932-client-dpop-auth-scheme',
      'sep-1932-client-fresh-proof',
    ]) {
      expect(statusOf(checks, id), id).toBe('SUCCESS');
    }
  });

  it('fails with dpop_failed, before registering, when the AS does not take the key the app supplies', async () => {
    const run = await scenario('auth/dpop');
    const keyPair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, false, [
      'sign',
      'verify',
    ])) as CryptoKeyPair;
    // The AS advertises ES256 only: an ES384 key gets a clear error, never a silent Bearer fallback.
    await expect(connect(run.url, { dpop: { keyPair } })).rejects.toMatchObject({ code: 'dpop_failed' });
    const checks = await run.checks();
    expect(checks.some((check) => check.id === 'client-registration' || check.id === 'token-request')).toBe(false);
  });
});
