import { describe, expect, it } from 'vitest';
import { AuthError, type OAuthOptions, OAuthProvider } from '../../src/index.js';
import { approve, REDIRECT_URI, useAuthServers } from '../auth/auth-scenarios.js';

/**
 * Checklist §10 (authorization, client side) against the scriptable OAuth servers
 * of test-servers/auth: each test sets up the case and reads what reached the
 * authorization server and the protected MCP server.
 */
const bed = useAuthServers();

/** A user who approves at once, remembering every authorization URL they were sent to. */
function user() {
  const seen: URL[] = [];
  return {
    seen,
    authorize: async (url: URL) => {
      seen.push(url);
      return approve(url);
    },
  };
}

async function listTools(url: string, options: OAuthOptions) {
  const client = await bed.connect(url, new OAuthProvider(options));
  return client.listTools();
}

describe('spec: authorization', () => {
  it('refuses to go on, sending the user nowhere, when the AS metadata lists no code_challenge_methods_supported', async () => {
    const scenario = await bed.servers().createScenario({ pkceMethods: null });
    const person = user();
    const failure = await listTools(scenario.info().mcp, {
      redirectUri: REDIRECT_URI,
      authorize: person.authorize,
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(AuthError);
    expect(person.seen).toEqual([]);
    expect(scenario.stats().requests.some((request) => request.path.endsWith('/authorize'))).toBe(false);
  });

  it('finds PRM at the root well-known URL when the challenge names none and the path-inserted one is missing', async () => {
    const scenario = await bed.servers().createScenario({ prmAt: 'root', resourceMetadataInHeader: false });
    await listTools(scenario.info().mcp, { redirectUri: REDIRECT_URI, authorize: user().authorize });
    const prmPaths = scenario
      .stats()
      .requests.filter((request) => request.path.startsWith('/.well-known/oauth-protected-resource'))
      .map((request) => request.path);
    expect(prmPaths.slice(0, 2)).toEqual([
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]);
  });

  it('sends the bearer token in the Authorization header of every MCP request once authorized, and never in a URL', async () => {
    const scenario = await bed.servers().createScenario();
    const client = await bed.connect(
      scenario.info().mcp,
      new OAuthProvider({ redirectUri: REDIRECT_URI, authorize: user().authorize }),
    );
    await client.listTools();
    await client.ping();
    const { requests, tokensInUrls } = scenario.stats();
    const endpoint = new URL(scenario.info().mcp).pathname;
    // The first request goes out before there is a token, and metadata discovery carries none.
    const afterToken = requests.filter((request) => request.path === endpoint && request.status !== 401);
    expect(afterToken.length).toBeGreaterThan(2);
    for (const request of afterToken) expect(request.headers.authorization).toMatch(/^Bearer \S+$/);
    expect(tokensInUrls).toEqual([]);
  });

  it('uses the pre-registered client of this issuer, registering nothing', async () => {
    const scenario = await bed.servers().createScenario({
      dcr: false,
      clients: [{ client_id: 'pre-registered', token_endpoint_auth_method: 'none', redirect_uris: [REDIRECT_URI] }],
    });
    const person = user();
    await listTools(scenario.info().mcp, {
      redirectUri: REDIRECT_URI,
      authorize: person.authorize,
      clients: { [scenario.info().issuer]: { client_id: 'pre-registered' } },
    });
    expect(person.seen.map((url) => url.searchParams.get('client_id'))).toEqual(['pre-registered']);
    expect(scenario.stats().registrations).toEqual([]);
  });

  it('names a Client ID Metadata Document URL as its client_id where the AS supports CIMD, registering nothing', async () => {
    const scenario = await bed.servers().createScenario({ cimd: true });
    const seen: URL[] = [];
    const failure = listTools(scenario.info().mcp, {
      redirectUri: REDIRECT_URI,
      clientMetadataUrl: 'https://app.example/oauth/client.json',
      // The AS could not fetch this document, so the test stops at the authorization URL.
      authorize: async (url) => {
        seen.push(url);
        throw new AuthError('redirect_started', 'stopped at the authorization URL');
      },
    });
    await expect(failure).rejects.toMatchObject({ code: 'redirect_started' });
    expect(seen.map((url) => url.searchParams.get('client_id'))).toEqual(['https://app.example/oauth/client.json']);
    expect(scenario.stats().registrations).toEqual([]);
  });

  it('states an application_type and the refresh_token grant when it registers dynamically', async () => {
    const scenario = await bed.servers().createScenario();
    await listTools(scenario.info().mcp, { redirectUri: REDIRECT_URI, authorize: user().authorize });
    const [registration] = scenario.stats().registrations;
    expect(registration?.via).toBe('dcr');
    expect(registration?.metadata.application_type).toBe('native');
    expect(registration?.metadata.grant_types).toContain('refresh_token');
  });

  it('fails with registration_failed naming the refusal when the AS refuses its redirect URI for the application_type', async () => {
    const scenario = await bed.servers().createScenario({ dcrRedirectRules: 'oidc' });
    const person = user();
    const failure = listTools(scenario.info().mcp, {
      redirectUri: REDIRECT_URI,
      authorize: person.authorize,
      clientMetadata: { application_type: 'web' },
    });
    await expect(failure).rejects.toMatchObject({
      code: 'registration_failed',
      message: expect.stringMatching(/redirect/),
    });
    expect(person.seen).toEqual([]);
  });

  it('refuses AS metadata whose issuer is not the issuer it was fetched for, sending the user nowhere', async () => {
    const scenario = await bed.servers().createScenario({ issuerInMetadata: 'wrong' });
    const person = user();
    const failure = listTools(scenario.info().mcp, { redirectUri: REDIRECT_URI, authorize: person.authorize });
    await expect(failure).rejects.toBeInstanceOf(AuthError);
    expect(person.seen).toEqual([]);
    expect(scenario.stats().registrations).toEqual([]);
  });

  it('authorizes again when its token expires and the AS issued no refresh token', async () => {
    const scenario = await bed.servers().createScenario({ refreshTokens: false });
    const person = user();
    const client = await bed.connect(
      scenario.info().mcp,
      new OAuthProvider({ redirectUri: REDIRECT_URI, authorize: person.authorize }),
    );
    await client.listTools();
    scenario.expireTokens();
    await client.ping();
    expect(person.seen).toHaveLength(2);
  });

  it('uses the default /authorize, /token and /register endpoints of a 2025-03-26 server without metadata', async () => {
    const scenario = await bed.servers().createScenario({ legacy: 'defaults' });
    const person = user();
    await listTools(scenario.info().mcp, { redirectUri: REDIRECT_URI, authorize: person.authorize });
    const origin = new URL(scenario.info().mcp).origin;
    expect(person.seen.map((url) => `${url.origin}${url.pathname}`)).toEqual([`${origin}/authorize`]);
    const paths = scenario.stats().requests.map((request) => request.path);
    expect(paths).toEqual(expect.arrayContaining(['/register', '/token']));
  });
});
