import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServers } from '../auth/serve.mjs';
import {
  asMetadata,
  assertionClaims,
  assertionSigner,
  authorize,
  type Info,
  json,
  mcpInitialize,
  pkce,
  REDIRECT_URI,
  tokenRequest,
} from './auth-peer.js';

let servers: Awaited<ReturnType<typeof startAuthServers>>;
beforeAll(async () => {
  servers = await startAuthServers();
});
afterAll(() => servers.close());

async function scenario(config: Record<string, unknown> = {}) {
  const created = await servers.createScenario(config);
  return { created, info: created.info() as Info, metadata: await asMetadata(created.info() as Info) };
}

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

describe('pre-registered clients at the token endpoint', () => {
  const clients = [
    { client_id: 'basic-client', client_secret: 's3cret:+&', token_endpoint_auth_method: 'client_secret_basic' },
    { client_id: 'post-client', client_secret: 'p0st', token_endpoint_auth_method: 'client_secret_post' },
  ];

  it('grants client_credentials to client_secret_basic (form-encoded credentials) and client_secret_post', async () => {
    const { info, metadata } = await scenario({ clients });
    const endpoint = String(metadata.token_endpoint);
    const viaBasic = await tokenRequest(
      endpoint,
      { grant_type: 'client_credentials', resource: info.mcp },
      { authorization: basic('basic-client', 's3cret:+&') },
    );
    expect(await json(viaBasic)).toMatchObject({ token_type: 'Bearer', scope: 'mcp:read' });
    const viaPost = await json(
      await tokenRequest(endpoint, {
        grant_type: 'client_credentials',
        client_id: 'post-client',
        client_secret: 'p0st',
        scope: 'mcp:read mcp:write',
        resource: info.mcp,
      }),
    );
    expect(viaPost).toMatchObject({ scope: 'mcp:read mcp:write' });
    expect(viaPost).not.toHaveProperty('refresh_token');
    const opened = await mcpInitialize(info.mcp, String(viaPost.access_token));
    expect(opened.status).toBe(200);
    await opened.body?.cancel();
  });

  it('refuses a wrong secret, and a method other than the one registered, with 401 invalid_client', async () => {
    const { metadata } = await scenario({ clients });
    const endpoint = String(metadata.token_endpoint);
    const wrong = await tokenRequest(
      endpoint,
      { grant_type: 'client_credentials' },
      { authorization: basic('basic-client', 'nope') },
    );
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Basic realm="token"');
    const otherMethod = await tokenRequest(endpoint, {
      grant_type: 'client_credentials',
      client_id: 'basic-client',
      client_secret: 's3cret:+&',
    });
    expect(otherMethod.status).toBe(401);
    expect(await json(otherMethod)).toMatchObject({
      error: 'invalid_client',
      error_description: 'client authenticated with client_secret_post, registered for client_secret_basic',
    });
  });

  it('runs the code flow for a pre-registered public client limited to its redirect URIs', async () => {
    const { info, metadata } = await scenario({
      clients: [{ client_id: 'public', token_endpoint_auth_method: 'none', redirect_uris: [REDIRECT_URI] }],
    });
    const { verifier, challenge } = await pkce();
    const params = {
      response_type: 'code',
      client_id: 'public',
      redirect_uri: REDIRECT_URI,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: info.mcp,
    };
    const { callback } = await authorize(String(metadata.authorization_endpoint), params);
    const tokens = await tokenRequest(String(metadata.token_endpoint), {
      grant_type: 'authorization_code',
      code: callback?.searchParams.get('code') ?? '',
      client_id: 'public',
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      resource: info.mcp,
    });
    expect(await json(tokens)).toHaveProperty('refresh_token');
    const cc = await tokenRequest(String(metadata.token_endpoint), {
      grant_type: 'client_credentials',
      client_id: 'public',
    });
    expect(await json(cc)).toMatchObject({ error: 'unauthorized_client' });
    const elsewhere = { ...params, redirect_uri: 'http://127.0.0.1:9/other' };
    expect((await authorize(String(metadata.authorization_endpoint), elsewhere)).status).toBe(400);
  });

  it('accepts a private_key_jwt assertion once, for the token endpoint or issuer audience', async () => {
    const signer = await assertionSigner();
    const { info, metadata } = await scenario({
      issuerPath: '/tenant',
      clients: [{ client_id: 'jwt-client', token_endpoint_auth_method: 'private_key_jwt', jwks: signer.jwks }],
    });
    const endpoint = String(metadata.token_endpoint);
    const grant = (assertion: string) =>
      tokenRequest(endpoint, {
        grant_type: 'client_credentials',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: assertion,
        resource: info.mcp,
      });
    const assertion = await signer.sign(assertionClaims('jwt-client', endpoint));
    expect((await grant(assertion)).status).toBe(200);
    expect(await json(await grant(assertion))).toMatchObject({
      error_description: 'client assertion jti missing or replayed',
    });
    expect((await grant(await signer.sign(assertionClaims('jwt-client', info.issuer)))).status).toBe(200);
    const elsewhere = await json(
      await grant(await signer.sign(assertionClaims('jwt-client', 'https://other.example'))),
    );
    expect(elsewhere.error).toBe('invalid_client');
    const stranger = await assertionSigner();
    const forged = await json(await grant(await stranger.sign(assertionClaims('jwt-client', endpoint))));
    expect(forged.error_description).toBe('client assertion: no key in the client JWKS verifies the signature');
  });
});

describe('client ID metadata documents', () => {
  it('fetches the document named by a URL client_id and holds the client to its redirect URIs', async () => {
    const { info, metadata, created } = await scenario({ cimd: true, dcr: false });
    const clientId = `${servers.control}/documents/app-client`;
    servers.setDocument('app-client', {
      client_id: clientId,
      client_name: 'Test App',
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'none',
    });
    const { verifier, challenge } = await pkce();
    const params = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: info.mcp,
    };
    const { callback } = await authorize(String(metadata.authorization_endpoint), params);
    const tokens = await tokenRequest(String(metadata.token_endpoint), {
      grant_type: 'authorization_code',
      code: callback?.searchParams.get('code') ?? '',
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      resource: info.mcp,
    });
    expect(tokens.status).toBe(200);
    expect(created.stats().cimdFetches).toEqual([clientId]);
    expect(created.stats().registrations).toMatchObject([{ via: 'cimd', client_id: clientId }]);
  });

  it('refuses a document whose client_id is not its own URL, and ignores URL client ids without CIMD', async () => {
    const clientId = `${servers.control}/documents/liar`;
    servers.setDocument('liar', {
      client_id: 'https://else.example/c',
      client_name: 'x',
      redirect_uris: [REDIRECT_URI],
    });
    const params = { response_type: 'code', client_id: clientId, redirect_uri: REDIRECT_URI };
    const withCimd = await scenario({ cimd: true });
    const refused = await authorize(String(withCimd.metadata.authorization_endpoint), params);
    expect(refused).toMatchObject({ status: 400, text: expect.stringContaining('does not equal its URL') });
    const withoutCimd = await scenario();
    const unknown = await authorize(String(withoutCimd.metadata.authorization_endpoint), params);
    expect(unknown.text).toContain('unknown client_id');
    expect(withoutCimd.created.stats().cimdFetches).toEqual([]);
  });
});
