import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServers } from '../auth/serve.mjs';
import { getJson, type Info, mcpInitialize } from './auth-peer.js';

let servers: Awaited<ReturnType<typeof startAuthServers>>;
beforeAll(async () => {
  servers = await startAuthServers();
});
afterAll(() => servers.close());

async function scenario(config: Record<string, unknown> = {}) {
  const created = await servers.createScenario(config);
  return { created, info: created.info() as Info };
}

const status = async (url: string) => (await fetch(url)).status;

describe('protected resource metadata', () => {
  it('answers 401 with resource_metadata and scope, and serves PRM at the path-inserted URL only', async () => {
    const { info } = await scenario();
    const origin = new URL(info.mcp).origin;
    const response = await mcpInitialize(info.mcp);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer scope="mcp:read", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(await getJson(`${origin}/.well-known/oauth-protected-resource/mcp`)).toEqual({
      resource: info.mcp,
      authorization_servers: [info.issuer],
      scopes_supported: ['mcp:read', 'mcp:write'],
      bearer_methods_supported: ['header'],
    });
    expect(await status(`${origin}/.well-known/oauth-protected-resource`)).toBe(404);
  });

  it('serves PRM only at the root, and leaves it out of the header, in the root variant', async () => {
    const { info } = await scenario({ prmAt: 'root', resourceMetadataInHeader: false, challengeScope: null });
    const origin = new URL(info.mcp).origin;
    expect((await mcpInitialize(info.mcp)).headers.get('www-authenticate')).toBe('Bearer');
    expect(await status(`${origin}/.well-known/oauth-protected-resource/mcp`)).toBe(404);
    expect((await getJson(`${origin}/.well-known/oauth-protected-resource`)).resource).toBe(info.mcp);
  });

  it('serves PRM only at a custom path that the header names', async () => {
    const { info } = await scenario({ prmAt: 'custom', prmScopes: null });
    const origin = new URL(info.mcp).origin;
    const header = (await mcpInitialize(info.mcp)).headers.get('www-authenticate');
    expect(header).toContain(`resource_metadata="${origin}/meta/protected-resource.json"`);
    expect(await getJson(`${origin}/meta/protected-resource.json`)).not.toHaveProperty('scopes_supported');
    expect(await status(`${origin}/.well-known/oauth-protected-resource/mcp`)).toBe(404);
    expect(await status(`${origin}/.well-known/oauth-protected-resource`)).toBe(404);
  });

  it('names another authorization server when told to, on a running scenario', async () => {
    const { created, info } = await scenario();
    created.update({ authorizationServers: ['http://127.0.0.1:1/other'] });
    expect((await getJson(info.prm ?? '')).authorization_servers).toEqual(['http://127.0.0.1:1/other']);
  });
});

describe('authorization server metadata', () => {
  it('puts an issuer with a path in the path-inserted RFC 8414 location, with S256 and iss support', async () => {
    const { info } = await scenario({ issuerPath: '/tenant1' });
    expect(info.issuer).toBe(`${info.as}/tenant1`);
    const document = await getJson(`${info.as}/.well-known/oauth-authorization-server/tenant1`);
    expect(document).toMatchObject({
      issuer: info.issuer,
      authorization_endpoint: `${info.as}/tenant1/oauth/authorize`,
      token_endpoint: `${info.as}/tenant1/oauth/token`,
      registration_endpoint: `${info.as}/tenant1/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
    expect(document).not.toHaveProperty('client_id_metadata_document_supported');
    for (const path of [
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration/tenant1',
      '/tenant1/.well-known/openid-configuration',
    ]) {
      expect(await status(`${info.as}${path}`)).toBe(404);
    }
  });

  it('serves only the OIDC documents a scenario names, for issuers with and without a path', async () => {
    const inserted = (await scenario({ issuerPath: '/t', metadata: ['oidc'] })).info;
    expect((await getJson(`${inserted.as}/.well-known/openid-configuration/t`)).issuer).toBe(inserted.issuer);
    expect(await status(`${inserted.as}/t/.well-known/openid-configuration`)).toBe(404);
    expect(await status(`${inserted.as}/.well-known/oauth-authorization-server/t`)).toBe(404);

    const appended = (await scenario({ issuerPath: '/t', metadata: ['oidc-appended'] })).info;
    const document = await getJson(`${appended.as}/t/.well-known/openid-configuration`);
    expect(document).toMatchObject({ issuer: appended.issuer, jwks_uri: `${appended.as}/t/oauth/jwks` });
    expect(await status(`${appended.as}/.well-known/openid-configuration/t`)).toBe(404);

    const root = (await scenario({ metadata: ['oidc'] })).info;
    expect((await getJson(`${root.as}/.well-known/openid-configuration`)).issuer).toBe(root.issuer);
    expect(await status(`${root.as}/.well-known/oauth-authorization-server`)).toBe(404);
  });

  it('states a wrong issuer, or the issuer with a trailing slash, when told to', async () => {
    const wrong = (await scenario({ issuerInMetadata: 'wrong' })).info;
    expect((await getJson(`${wrong.as}/.well-known/oauth-authorization-server`)).issuer).toBe(
      'https://attacker.example',
    );
    const slash = (await scenario({ issuerInMetadata: 'trailing-slash' })).info;
    expect((await getJson(`${slash.as}/.well-known/oauth-authorization-server`)).issuer).toBe(`${slash.issuer}/`);
  });

  it('leaves out code_challenge_methods_supported, iss support and DCR, and adds CIMD, when told to', async () => {
    const { info } = await scenario({ pkceMethods: null, issSupported: false, dcr: false, cimd: true });
    const document = await getJson(`${info.as}/.well-known/oauth-authorization-server`);
    expect(document).not.toHaveProperty('code_challenge_methods_supported');
    expect(document).not.toHaveProperty('registration_endpoint');
    expect(document).toMatchObject({
      authorization_response_iss_parameter_supported: false,
      client_id_metadata_document_supported: true,
    });
    expect((await fetch(`${info.as}/oauth/register`, { method: 'POST', body: '{}' })).status).toBe(404);
  });
});

describe('2025-03-26 legacy scenarios', () => {
  it('answers a bare 401 and serves AS metadata at the MCP origin, with no PRM', async () => {
    const { info } = await scenario({ legacy: 'metadata' });
    const origin = new URL(info.mcp).origin;
    expect(info).toMatchObject({ issuer: origin, as: origin, prm: null });
    const response = await mcpInitialize(info.mcp);
    expect(response.status).toBe(401);
    expect(response.headers.has('www-authenticate')).toBe(false);
    expect(await getJson(`${origin}/.well-known/oauth-authorization-server`)).toMatchObject({
      issuer: origin,
      authorization_endpoint: `${origin}/oauth/authorize`,
    });
    expect(await status(`${origin}/.well-known/oauth-protected-resource/mcp`)).toBe(404);
    expect(await status(`${origin}/.well-known/oauth-protected-resource`)).toBe(404);
  });

  it('serves no metadata but the default /authorize, /token and /register in the defaults variant', async () => {
    const { info } = await scenario({ legacy: 'defaults' });
    const origin = new URL(info.mcp).origin;
    expect(await status(`${origin}/.well-known/oauth-authorization-server`)).toBe(404);
    const registered = await fetch(`${origin}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['http://localhost:3000/cb'], token_endpoint_auth_method: 'none' }),
    });
    expect(registered.status).toBe(201);
    const token = await fetch(`${origin}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(await token.json()).toMatchObject({ error: 'invalid_request' });
    expect((await fetch(`${origin}/authorize?client_id=nobody`)).status).toBe(400);
  });
});
