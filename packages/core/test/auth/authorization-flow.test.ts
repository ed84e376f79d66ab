import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthError,
  Client,
  MemoryOAuthStore,
  type OAuthOptions,
  OAuthProvider,
  StreamableHttpTransport,
} from '../../src/index.js';
import { problems, statusOf, useScenarios } from './conformance-servers.js';

const scenario = useScenarios();
const REDIRECT_URI = 'http://localhost:3000/callback';
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** A headless user: follows the authorization URL (the conformance AS approves at once) and returns the callback. */
function headlessUser() {
  const seen: URL[] = [];
  const authorize = async (url: URL): Promise<URL> => {
    seen.push(url);
    const response = await fetch(url, { redirect: 'manual' });
    await response.body?.cancel();
    return new URL(response.headers.get('location') ?? '', url);
  };
  return { seen, authorize };
}

async function connect(url: string, options: OAuthOptions): Promise<Client> {
  const auth = new OAuthProvider(options);
  const client = new Client(new StreamableHttpTransport(url, { auth }), { requestTimeout: 10_000 });
  clients.push(client);
  await client.connect();
  return client;
}

describe('authorization code flow against the conformance servers', () => {
  it('discovers PRM at a custom location and OIDC metadata appended to an issuer path, registers, and calls', async () => {
    const run = await scenario('auth/metadata-var3');
    const user = headlessUser();
    const client = await connect(run.url, { redirectUri: REDIRECT_URI, authorize: user.authorize });
    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('test-tool');

    const [request] = user.seen;
    expect(request?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(request?.searchParams.get('resource')).toBe(run.url);
    expect(request?.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
    await client.close();
    expect(problems(await run.checks())).toEqual([]);
  });

  it('steps up on 403 insufficient_scope with the union of the scopes', async () => {
    const run = await scenario('auth/scope-step-up');
    const user = headlessUser();
    const client = await connect(run.url, { redirectUri: REDIRECT_URI, authorize: user.authorize });
    await client.callTool('test-tool', {});
    expect(user.seen.map((url) => url.searchParams.get('scope'))).toEqual(['mcp:basic', 'mcp:basic mcp:write']);
    await client.close();
    const checks = await run.checks();
    expect(problems(checks)).toEqual([]);
    expect(statusOf(checks, 'sep-2350-scope-union-on-reauth')).toBe('SUCCESS');
  });

  it('gives up with a maxAttempts LimitError after that many authorizations that do not help', async () => {
    const run = await scenario('auth/scope-retry-limit');
    const user = headlessUser();
    const failure = connect(run.url, { redirectUri: REDIRECT_URI, authorize: user.authorize }).then((client) =>
      client.listTools(),
    );
    await expect(failure).rejects.toMatchObject({ name: 'LimitError', limit: 'maxAttempts', value: 3 });
    expect(user.seen).toHaveLength(3);
    expect(statusOf(await run.checks(), 'scope-retry-limit')).toBe('SUCCESS');
  });

  it('authenticates with client_secret_post when that is what registration returned', async () => {
    const run = await scenario('auth/token-endpoint-auth-post');
    const client = await connect(run.url, { redirectUri: REDIRECT_URI, authorize: headlessUser().authorize });
    await client.listTools();
    await client.close();
    const checks = await run.checks();
    expect(problems(checks)).toEqual([]);
    expect(statusOf(checks, 'token-endpoint-auth-method')).toBe('SUCCESS');
    expect(statusOf(checks, 'resource-parameter-matches-prm')).toBe('SUCCESS');
  });

  it('refuses an authorization response whose iss differs, before redeeming the code', async () => {
    const run = await scenario('auth/iss-wrong-issuer');
    const error = await connect(run.url, { redirectUri: REDIRECT_URI, authorize: headlessUser().authorize }).then(
      (client) => client.listTools(),
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).code).toBe('issuer_mismatch');
    expect((error as AuthError).message).not.toContain('test-auth-code');
    const checks = await run.checks();
    expect(statusOf(checks, 'sep-2468-client-compare-iss-supported')).toBe('SUCCESS');
    expect(checks.some((check) => check.id === 'token-request')).toBe(false);
  });

  it('registers again, and never shows the old client, when PRM moves to another authorization server', async () => {
    const run = await scenario('auth/authorization-server-migration');
    const user = headlessUser();
    const client = await connect(run.url, { redirectUri: REDIRECT_URI, authorize: user.authorize });
    await client.listTools();
    await client.callTool('test-tool', {});
    expect(new Set(user.seen.map((url) => url.origin)).size).toBe(2);
    await client.close();
    const checks = await run.checks();
    expect(problems(checks)).toEqual([]);
    expect(statusOf(checks, 'sep-2352-reregister-on-as-change')).toBe('SUCCESS');
  });

  it('fails with no_redirect_handler, before registering, when the user cannot be asked', async () => {
    const run = await scenario('auth/metadata-default');
    await expect(connect(run.url, {}).then((client) => client.listTools())).rejects.toMatchObject({
      code: 'no_redirect_handler',
    });
    const checks = await run.checks();
    expect(checks.some((check) => check.id === 'client-registration' && check.status === 'SUCCESS')).toBe(false);
  });

  it('completes a full-page redirect flow with finishAuthorization after a "reload"', async () => {
    const run = await scenario('auth/metadata-default');
    const store = new MemoryOAuthStore();
    let leftFor: URL | undefined;
    const firstPage = connect(run.url, {
      store,
      redirectUri: REDIRECT_URI,
      // A page navigating away never comes back to resolve this.
      authorize: async (url) => {
        leftFor = url;
        return new Promise<URL>(() => {});
      },
    }).then((client) => client.listTools());
    firstPage.catch(() => {});
    await expect.poll(() => leftFor, { timeout: 5000 }).toBeDefined();

    const callback = await headlessUser().authorize(leftFor as URL);
    const reloaded = new OAuthProvider({ store, redirectUri: REDIRECT_URI });
    await reloaded.finishAuthorization(callback);
    const client = new Client(new StreamableHttpTransport(run.url, { auth: reloaded }), { requestTimeout: 10_000 });
    clients.push(client);
    await client.connect();
    expect((await client.listTools()).map((tool) => tool.name)).toContain('test-tool');
    await expect(reloaded.finishAuthorization(callback)).rejects.toMatchObject({ code: 'invalid_state' });
  });
});
