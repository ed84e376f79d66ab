import { describe, expect, it } from 'vitest';
import { MemoryOAuthStore, OAuthProvider } from '../../src/index.js';
import { approvingProvider as provider, REDIRECT_URI, useAuthServers } from './auth-scenarios.js';

/**
 * Several providers (tabs, Workers, processes) signing in through one store
 * against an authorization server with Dynamic Client Registration that binds
 * each refresh token to its client (test-servers/auth). Two registrations at
 * the same moment would leave the store with the later client, and the tokens
 * of the earlier one could never be refreshed.
 */
const bed = useAuthServers();

/** A new scenario (DCR, rotating refresh tokens), its tokens' store key, and its AS requests to a path. */
async function newScenario() {
  const scenario = await bed.servers().createScenario();
  const { mcp, issuer } = scenario.info();
  const asRequests = (path: string) =>
    scenario.stats().requests.filter((entry) => entry.server === 'as' && entry.path.endsWith(path));
  return { scenario, mcp, issuer, tokensKey: `tokens:${issuer}|${mcp}`, asRequests };
}

describe('client registration across providers sharing one store', () => {
  it('two providers signing in at the same moment register one client, and both refresh with it later', async () => {
    const store = new MemoryOAuthStore();
    const { scenario, mcp, issuer, tokensKey, asRequests } = await newScenario();
    const [a, b] = [provider(store), provider(store)];

    await Promise.all([bed.connect(mcp, a.auth), bed.connect(mcp, b.auth)]);

    expect(scenario.stats().registrations).toHaveLength(1);
    const [registered] = scenario.stats().registrations;
    expect(await store.get(`client:${issuer}`)).toMatchObject({ client_id: registered?.client_id });
    // Both flows ran (no lock here), each with the one client.
    expect(asRequests('/authorize').map((entry) => entry.query.client_id)).toEqual([
      registered?.client_id,
      registered?.client_id,
    ]);

    // Later, each provider's token has expired: each refreshes, nobody is asked to sign in again.
    for (const { auth } of [a, b]) {
      const stored = (await store.get(tokensKey)) as object;
      await store.set(tokensKey, { ...stored, expires_at: 1 });
      scenario.expireTokens();
      const before = asRequests('/token').length;
      const client = await bed.connect(mcp, auth);
      expect((await client.listTools()).length).toBeGreaterThan(0);
      expect(
        asRequests('/token')
          .slice(before)
          .map((entry) => [entry.form?.grant_type, entry.form?.client_id, entry.status]),
      ).toEqual([['refresh_token', registered?.client_id, 200]]);
    }
    expect(a.authorizations() + b.authorizations()).toBe(2);
    expect(scenario.stats().registrations).toHaveLength(1);
  });

  it('a refresh token whose client is no longer stored is never sent: it is dropped and the user signs in once, with the stored client', async () => {
    const store = new MemoryOAuthStore();
    const { scenario, mcp, issuer, tokensKey, asRequests } = await newScenario();
    await bed.connect(mcp, provider(store).auth);
    const first = (await store.get(tokensKey)) as { client_id: string; refresh_token: string };
    // Another instance registered again (a store without update, racing) and its client replaced ours.
    const other = new MemoryOAuthStore();
    await bed.connect(mcp, provider(other).auth);
    const replacement = (await other.get(`client:${issuer}`)) as { client_id: string };
    expect(replacement.client_id).not.toBe(first.client_id);
    await store.set(`client:${issuer}`, replacement);
    await store.set(tokensKey, { ...first, expires_at: 1 });
    scenario.expireTokens();
    const tokensBefore = asRequests('/token').length;

    // Without an authorize handler nothing can get a token: the request fails, and the dead refresh token is gone.
    const late = new OAuthProvider({ store, redirectUri: REDIRECT_URI });
    await expect(bed.connect(mcp, late)).rejects.toMatchObject({ code: 'no_redirect_handler' });
    expect(asRequests('/token').slice(tokensBefore)).toEqual([]);
    expect(await store.get(tokensKey)).not.toHaveProperty('refresh_token');

    // With one, the user is asked once and the new tokens belong to the stored client, refreshable again.
    const next = provider(store);
    expect((await (await bed.connect(mcp, next.auth)).listTools()).length).toBeGreaterThan(0);
    expect(next.authorizations()).toBe(1);
    expect(
      asRequests('/token')
        .slice(tokensBefore)
        .map((entry) => entry.form?.grant_type),
    ).toEqual(['authorization_code']);
    expect(await store.get(tokensKey)).toMatchObject({
      client_id: replacement.client_id,
      refresh_token: expect.any(String),
    });
  });
});
