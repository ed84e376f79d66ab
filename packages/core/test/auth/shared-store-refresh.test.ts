import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/connections/index.js';
import { Client, MemoryOAuthStore, OAuthProvider, type OAuthStore, StreamableHttpTransport } from '../../src/index.js';
import { approve, approvingProvider as provider, REDIRECT_URI, useAuthServers } from './auth-scenarios.js';

/**
 * Several providers (tabs, Workers, processes) on one store, against an
 * authorization server that rotates refresh tokens and refuses a rotated one
 * (test-servers/auth). Without the store's update, each would send the same
 * refresh token: one wins, the others get `invalid_grant` and sign the user out.
 */
const bed = useAuthServers();

/** Signs in once through a first provider, then makes the stored access token expired, here and at the server. */
async function signedInThenExpired(store: OAuthStore) {
  const scenario = await bed.servers().createScenario();
  const { mcp, issuer } = scenario.info();
  await bed.connect(mcp, provider(store).auth);
  const key = `tokens:${issuer}|${mcp}`;
  const tokens = (await store.get(key)) as { access_token: string; refresh_token: string };
  expect(tokens.refresh_token).toEqual(expect.any(String));
  await store.set(key, { ...tokens, expires_at: 1 });
  scenario.expireTokens();
  const tokenRequests = () =>
    scenario.stats().requests.filter((entry) => entry.server === 'as' && entry.path.endsWith('/token'));
  return { scenario, mcp, key, expired: tokens, tokenRequests };
}

describe('refresh across providers sharing one store', () => {
  it('two providers racing an expired token send one refresh, and both go on with the rotated token', async () => {
    const store = new MemoryOAuthStore();
    const { scenario, mcp, key, expired, tokenRequests } = await signedInThenExpired(store);
    const before = tokenRequests().length;
    const mcpBefore = scenario.stats().requests.length;
    const [b, c] = [provider(store), provider(store)];

    const clients = await Promise.all([bed.connect(mcp, b.auth), bed.connect(mcp, c.auth)]);

    const refreshes = tokenRequests().slice(before);
    expect(refreshes.map((entry) => [entry.form?.grant_type, entry.form?.refresh_token, entry.status])).toEqual([
      ['refresh_token', expired.refresh_token, 200],
    ]);
    expect(b.authorizations() + c.authorizations()).toBe(0);
    const rotated = (await store.get(key)) as { access_token: string; refresh_token: string };
    expect(rotated.refresh_token).not.toBe(expired.refresh_token);
    for (const client of clients) expect((await client.listTools()).length).toBeGreaterThan(0);
    const sent = scenario
      .stats()
      .requests.slice(mcpBefore)
      .filter((entry) => entry.server === 'mcp')
      .map((entry) => entry.headers.authorization);
    expect(new Set(sent)).toEqual(new Set([`Bearer ${rotated.access_token}`]));
  });

  it('a refresh token the server refuses inside the update is dropped, as without a shared store', async () => {
    const store = new MemoryOAuthStore();
    const { mcp, key, tokenRequests } = await signedInThenExpired(store);
    await store.set(key, { ...((await store.get(key)) as object), refresh_token: 'never-issued' });
    const before = tokenRequests().length;
    // No authorize handler: once the refresh is refused, nothing else can get a token.
    const late = new OAuthProvider({ store, redirectUri: REDIRECT_URI });

    await expect(bed.connect(mcp, late)).rejects.toMatchObject({ code: 'no_redirect_handler' });
    expect(
      tokenRequests()
        .slice(before)
        .map((entry) => [entry.form?.refresh_token, entry.error]),
    ).toEqual([['never-issued', 'invalid_grant']]);
    expect(await store.get(key)).not.toHaveProperty('refresh_token');
  });

  it('a provider refused before another finished the sign-in resends with those tokens, and refreshes nothing', async () => {
    // An instance that sent the user to sign in and is gone before the callback: a Durable Object
    // evicted, a page that navigated away. Its pending authorization stays in the store.
    const scenario = await bed.servers().createScenario();
    const { mcp, issuer } = scenario.info();
    const store = new MemoryStore();
    let signInAt: URL | undefined;
    const gone = new OAuthProvider({
      store,
      redirectUri: REDIRECT_URI,
      authorize: (url) => {
        signInAt = url;
        return new Promise<URL>(() => {});
      },
    });
    bed.connect(mcp, gone).catch(() => {});
    await expect.poll(() => signInAt, { timeout: 5000 }).toBeDefined();
    const callback = await approve(signInAt as URL);

    // The instance that comes up next connects: its first request leaves with no token, and the server's
    // refusal reaches its provider only once another provider on the store has finished the sign-in.
    const next = provider(store);
    const finisher = new OAuthProvider({ store, redirectUri: REDIRECT_URI });
    let finished: Promise<void> | undefined;
    const held: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (response.status !== 401 || finished) return response;
      finished = finisher.finishAuthorization(callback);
      await finished;
      return response;
    };
    const client = new Client(new StreamableHttpTransport(mcp, { auth: next.auth, fetch: held }), {
      requestTimeout: 10_000,
    });
    try {
      await client.connect();
      expect((await client.listTools()).length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }

    expect(finished).toBeDefined();
    const tokenRequests = scenario
      .stats()
      .requests.filter((entry) => entry.server === 'as' && entry.path.endsWith('/token'));
    expect(tokenRequests.map((entry) => entry.form?.grant_type)).toEqual(['authorization_code']);
    expect(next.authorizations()).toBe(0);
    const stored = (await store.get(`tokens:${issuer}|${mcp}`)) as { access_token: string };
    const carried = scenario
      .stats()
      .requests.filter((entry) => entry.server === 'mcp' && entry.headers.authorization)
      .map((entry) => entry.headers.authorization);
    expect(new Set(carried)).toEqual(new Set([`Bearer ${stored.access_token}`]));
  });
});
