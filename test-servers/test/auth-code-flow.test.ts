import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServers } from '../auth/serve.mjs';
import {
  asMetadata,
  authorize,
  codeFlow,
  type Info,
  mcpInitialize,
  pkce,
  REDIRECT_URI,
  register,
  tokenRequest,
} from './auth-peer.js';

let servers: Awaited<ReturnType<typeof startAuthServers>>;
beforeAll(async () => {
  servers = await startAuthServers();
});
afterAll(() => servers.close());

async function scenario(config: Record<string, unknown> = {}) {
  const created = await servers.createScenario(config);
  return { created, info: created.info() as Info };
}

/** A registered public client and the authorization parameters for it. */
async function prepared(info: Info) {
  const metadata = await asMetadata(info);
  const { body: client } = await register(String(metadata.registration_endpoint));
  const { verifier, challenge } = await pkce();
  const params = {
    response_type: 'code',
    client_id: String(client.client_id),
    redirect_uri: REDIRECT_URI,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'xyz',
    resource: info.mcp,
  };
  const exchange = (code: string, extra: Record<string, string> = {}, omit: string[] = []) => {
    const form: Record<string, string> = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      client_id: String(client.client_id),
      resource: info.mcp,
      ...extra,
    };
    for (const name of omit) delete form[name];
    return tokenRequest(String(metadata.token_endpoint), form);
  };
  return { metadata, client, params, exchange, authorizeAt: String(metadata.authorization_endpoint) };
}

describe('authorization code flow', () => {
  it('redirects with code, state and iss, and the token it issues opens the MCP server', async () => {
    const { info, created } = await scenario();
    const { params, exchange, authorizeAt } = await prepared(info);
    const { status, callback } = await authorize(authorizeAt, params);
    expect(status).toBe(302);
    expect(callback?.origin + (callback?.pathname ?? '')).toBe(REDIRECT_URI);
    expect(callback?.searchParams.get('state')).toBe('xyz');
    expect(callback?.searchParams.get('iss')).toBe(info.issuer);
    const response = await exchange(callback?.searchParams.get('code') ?? '');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const tokens = (await response.json()) as Record<string, unknown>;
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'mcp:read' });
    expect(typeof tokens.refresh_token).toBe('string');
    const opened = await mcpInitialize(info.mcp, String(tokens.access_token));
    expect(opened.status).toBe(200);
    expect(opened.headers.get('mcp-session-id')).toBeTruthy();
    await opened.body?.cancel();

    const { requests, tokensInUrls } = created.stats();
    const form = requests.find((entry) => entry.path === '/oauth/token')?.form;
    expect(form).toMatchObject({ grant_type: 'authorization_code', resource: info.mcp });
    expect(requests.find((entry) => entry.path === '/oauth/authorize')?.query.resource).toBe(info.mcp);
    expect(requests.at(-1)).toMatchObject({ server: 'mcp', rpcMethod: 'initialize', status: 200 });
    expect(tokensInUrls).toEqual([]);
  });

  it('sends a wrong iss, a trailing-slash iss, or none, as the scenario says', async () => {
    for (const [variant, expected] of [
      ['wrong', 'https://attacker.example'],
      ['missing', null],
    ] as const) {
      const { info } = await scenario({ issInResponse: variant });
      const { params, authorizeAt } = await prepared(info);
      expect((await authorize(authorizeAt, params)).callback?.searchParams.get('iss')).toBe(expected);
    }
    const { info } = await scenario({ issInResponse: 'trailing-slash' });
    const { params, authorizeAt } = await prepared(info);
    expect((await authorize(authorizeAt, params)).callback?.searchParams.get('iss')).toBe(`${info.issuer}/`);
  });

  it('redirects with access_denied when the scenario denies, keeping state', async () => {
    const { info } = await scenario({ authorizeOutcome: 'deny' });
    const { params, authorizeAt } = await prepared(info);
    const { callback } = await authorize(authorizeAt, params);
    expect(callback?.searchParams.get('error')).toBe('access_denied');
    expect(callback?.searchParams.get('state')).toBe('xyz');
    expect(callback?.searchParams.has('code')).toBe(false);
  });

  it('refuses without redirecting when the redirect URI is not registered', async () => {
    const { info } = await scenario();
    const { params, authorizeAt } = await prepared(info);
    const refused = await authorize(authorizeAt, { ...params, redirect_uri: 'http://127.0.0.1:9/elsewhere' });
    expect(refused.status).toBe(400);
    expect(refused.callback).toBeUndefined();
  });

  it('accepts a registered loopback redirect URI on another port (RFC 8252 § 7.3)', async () => {
    const { info } = await scenario();
    const { params, authorizeAt } = await prepared(info);
    const { callback } = await authorize(authorizeAt, { ...params, redirect_uri: 'http://127.0.0.1:4567/callback' });
    expect(callback?.origin).toBe('http://127.0.0.1:4567');
    expect(callback?.searchParams.has('code')).toBe(true);
  });

  it('redirects with an error for a missing PKCE challenge, plain PKCE, an unknown resource or scope', async () => {
    const { info } = await scenario();
    const { params, authorizeAt } = await prepared(info);
    const { code_challenge: _, ...withoutPkce } = params;
    const cases: [Record<string, string>, string][] = [
      [withoutPkce, 'invalid_request'],
      [{ ...params, code_challenge_method: 'plain' }, 'invalid_request'],
      [{ ...params, resource: `${info.mcp}/` }, 'invalid_target'],
      [{ ...params, scope: 'mcp:read admin' }, 'invalid_scope'],
    ];
    for (const [query, error] of cases) {
      expect((await authorize(authorizeAt, query)).callback?.searchParams.get('error')).toBe(error);
    }
  });

  it('refuses a wrong code_verifier, a wrong redirect_uri, a token request without resource, and a replayed code', async () => {
    const { info } = await scenario();
    const { params, exchange, authorizeAt } = await prepared(info);
    const code = async () => (await authorize(authorizeAt, params)).callback?.searchParams.get('code') ?? '';
    const error = async (response: Response) => ((await response.json()) as { error: string }).error;
    expect(await error(await exchange(await code(), { code_verifier: 'x'.repeat(43) }))).toBe('invalid_grant');
    expect(await error(await exchange(await code(), { redirect_uri: 'http://127.0.0.1:9/other' }))).toBe(
      'invalid_grant',
    );
    expect(await error(await exchange(await code(), {}, ['resource']))).toBe('invalid_target');
    const once = await code();
    const first = await exchange(once);
    expect(first.status).toBe(200);
    const { access_token } = (await first.json()) as { access_token: string };
    expect(await error(await exchange(once))).toBe('invalid_grant');
    // The replay revoked what the code produced.
    expect((await mcpInitialize(info.mcp, access_token)).status).toBe(401);
  });

  it('asks for resource again on the token request when the authorization request had it', async () => {
    const { info } = await scenario();
    const { params, exchange, authorizeAt } = await prepared(info);
    const code = (await authorize(authorizeAt, params)).callback?.searchParams.get('code') ?? '';
    const response = await exchange(code, { resource: `${info.mcp}?x` });
    expect(await response.json()).toMatchObject({ error: 'invalid_target' });
  });
});

describe('the protected MCP server', () => {
  it('refuses a token issued without a resource, and one for another server (audience)', async () => {
    const other = 'http://127.0.0.1:9/another-mcp';
    const { info } = await scenario({ otherResources: [other] });
    const { params, authorizeAt, metadata, client } = await prepared(info);
    const { verifier, challenge } = await pkce();
    const { resource: _, ...unbound } = { ...params, code_challenge: challenge };
    const code = (await authorize(authorizeAt, unbound)).callback?.searchParams.get('code') ?? '';
    const response = await tokenRequest(String(metadata.token_endpoint), {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      client_id: String(client.client_id),
    });
    const { access_token } = (await response.json()) as { access_token: string };
    const refused = await mcpInitialize(info.mcp, access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');

    const foreign = await pkce();
    const foreignCode = (
      await authorize(authorizeAt, { ...params, code_challenge: foreign.challenge, resource: other })
    ).callback?.searchParams.get('code');
    const foreignTokens = await tokenRequest(String(metadata.token_endpoint), {
      grant_type: 'authorization_code',
      code: foreignCode ?? '',
      redirect_uri: REDIRECT_URI,
      code_verifier: foreign.verifier,
      client_id: String(client.client_id),
      resource: other,
    });
    const wrongAudience = await mcpInitialize(
      info.mcp,
      String(((await foreignTokens.json()) as Record<string, unknown>).access_token),
    );
    expect(wrongAudience.status).toBe(401);
    expect(wrongAudience.headers.get('www-authenticate')).toContain('not issued for this resource');
  });

  it('answers 401 invalid_token once tokens expire, and a rotated refresh token opens it again', async () => {
    const { info, created } = await scenario({ accessTokenTtl: 60 });
    const { tokens, metadata, client } = await codeFlow(info);
    created.expireTokens();
    const expired = await mcpInitialize(info.mcp, String(tokens.access_token));
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('The access token expired');

    const refresh = (token: unknown) =>
      tokenRequest(String(metadata.token_endpoint), {
        grant_type: 'refresh_token',
        refresh_token: String(token),
        client_id: String(client.client_id),
        resource: info.mcp,
      });
    const renewed = (await (await refresh(tokens.refresh_token)).json()) as Record<string, unknown>;
    expect(renewed).toMatchObject({ token_type: 'Bearer', expires_in: 60, scope: 'mcp:read' });
    expect(renewed.refresh_token).not.toBe(tokens.refresh_token);
    const opened = await mcpInitialize(info.mcp, String(renewed.access_token));
    expect(opened.status).toBe(200);
    await opened.body?.cancel();
    // Rotation: the old refresh token is spent.
    expect(await (await refresh(tokens.refresh_token)).json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('issues no refresh token when the client did not register the refresh_token grant', async () => {
    const { info } = await scenario();
    const { tokens } = await codeFlow(info, { register: { grant_types: ['authorization_code'] } });
    expect(tokens).not.toHaveProperty('refresh_token');
  });

  it('answers 403 insufficient_scope for a tool that needs more scope, and serves it after step-up', async () => {
    const { info } = await scenario({ toolScopes: { add: 'mcp:write' }, inner: 'stateless' });
    const call = (token: unknown) =>
      fetch(info.mcp, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${String(token)}`,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'add', arguments: { a: 1, b: 2 } },
        }),
      });
    const first = await codeFlow(info);
    const refused = await call(first.tokens.access_token);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", error_description="Tool add needs mcp:write", scope="mcp:write", resource_metadata="${info.prm}"`,
    );
    const stepped = await codeFlow(info, { scope: 'mcp:read mcp:write' });
    const answered = await call(stepped.tokens.access_token);
    expect(answered.status).toBe(200);
    expect(JSON.stringify(await answered.json())).toContain('"sum":3');

    // Only the tool scope: the base scope is gone, so every request is refused.
    const narrow = await codeFlow(info, { scope: 'mcp:write' });
    const base = await mcpInitialize(info.mcp, String(narrow.tokens.access_token));
    expect(base.status).toBe(403);
    expect(base.headers.get('www-authenticate')).toContain('scope="mcp:read"');
  });
});

describe('dynamic client registration', () => {
  it('records the metadata as sent, application_type included, and issues secrets to confidential clients', async () => {
    const { info, created } = await scenario();
    const endpoint = String((await asMetadata(info)).registration_endpoint);
    const confidential = await register(endpoint, {
      token_endpoint_auth_method: 'client_secret_post',
      application_type: 'web',
    });
    expect(confidential.status).toBe(201);
    expect(typeof confidential.body.client_secret).toBe('string');
    const open = await register(endpoint);
    expect(open.body).not.toHaveProperty('client_secret');
    expect(created.stats().registrations.map((entry) => entry.metadata.application_type)).toEqual(['web', 'native']);
  });

  it('refuses redirect URIs that do not fit the application type under OIDC rules', async () => {
    const { info } = await scenario({ dcrRedirectRules: 'oidc' });
    const endpoint = String((await asMetadata(info)).registration_endpoint);
    expect(await register(endpoint, { application_type: 'web' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_redirect_uri' },
    });
    expect((await register(endpoint, { application_type: 'native' })).status).toBe(201);
    expect((await register(endpoint, { redirect_uris: ['http://example.com/cb'] })).body.error).toBe(
      'invalid_redirect_uri',
    );
  });
});
