import { describe, expect, it, vi } from 'vitest';
import { OAuthProvider } from '../../src/index.js';
import { causes } from '../transport/http/fail-loads.js';
import { approve, REDIRECT_URI, useAuthServers } from './auth-scenarios.js';

// A file of its own: once OAuth's request code has loaded, every later import gets it from the cache, so its
// loads can only be failed before anything loads it.

const bed = useAuthServers();

describe("OAuth's request code (ofetch), loaded on demand", () => {
  it('an authorization whose request code cannot load fails with the load failure, and the next one loads it', async () => {
    const scenario = await bed.servers().createScenario();
    let asked = 0;
    const auth = new OAuthProvider({
      redirectUri: REDIRECT_URI,
      authorize: (url) => {
        asked++;
        return approve(url);
      },
    });
    const failure = new TypeError('Failed to fetch dynamically imported module');
    const path = '../../src/auth/oauth-fetch.js';
    vi.doMock(path, () => {
      throw failure;
    });
    const refused = await bed.connect(scenario.info().mcp, auth).catch((caught: unknown) => caught);
    vi.doUnmock(path);
    expect(causes(refused)).toContain(failure);
    // Discovery could not go out, so the user was never sent to authorize.
    expect(asked).toBe(0);

    const client = await bed.connect(scenario.info().mcp, auth);
    expect((await client.listTools()).length).toBeGreaterThan(0);
    expect(asked).toBe(1);
    await scenario.close();
  });
});
