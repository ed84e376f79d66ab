import { describe, expect, it } from 'vitest';
import { OAuthProvider } from '../../src/index.js';
import { causes, failLoadsOf } from '../transport/http/fail-loads.js';
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
    const load = failLoadsOf('auth/oauth-fetch.js');
    const refused = await bed.connect(scenario.info().mcp, auth).catch((caught: unknown) => caught);
    load.restore();
    expect(causes(refused)).toContain(load.failure);
    // Discovery could not go out, so the user was never sent to authorize.
    expect(asked).toBe(0);

    const client = await bed.connect(scenario.info().mcp, auth);
    expect((await client.listTools()).length).toBeGreaterThan(0);
    expect(asked).toBe(1);
    await scenario.close();
  });
});
