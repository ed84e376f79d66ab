import { describe, expect, it } from 'vitest';
import { OAuthProvider } from '../../src/index.js';
import { approve, REDIRECT_URI, useAuthServers } from './auth-scenarios.js';
import { callThrough, startHostileOAuthServer } from './hostile-oauth-server.js';

/** Two MCP servers, each with its own authorization server, behind one OAuthProvider. */
const bed = useAuthServers();

describe('one OAuthProvider, several servers', () => {
  it('a server whose user is still away does not hold up another server', async () => {
    const [a, b] = await Promise.all([bed.servers().createScenario(), bed.servers().createScenario()]);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let aAsked = false;
    const auth = new OAuthProvider({
      redirectUri: REDIRECT_URI,
      authorize: async (url) => {
        if (url.origin === a.info().as) {
          aAsked = true;
          await held;
        }
        return approve(url);
      },
    });
    const first = bed.connect(a.info().mcp, auth);
    await expect.poll(() => aAsked, { timeout: 5000 }).toBe(true);

    const second = await bed.connect(b.info().mcp, auth);
    expect((await second.listTools()).length).toBeGreaterThan(0);

    release();
    expect((await (await first).listTools()).length).toBeGreaterThan(0);
    await Promise.all([a.close(), b.close()]);
  });

  it("one server's failed authorizations do not count against another's maxAttempts", async () => {
    const [a, b] = await Promise.all([bed.servers().createScenario(), bed.servers().createScenario()]);
    const auth = new OAuthProvider({
      redirectUri: REDIRECT_URI,
      maxAttempts: 3,
      authorize: async (url) => {
        if (url.origin === a.info().as) throw new Error('the user closed the window');
        return approve(url);
      },
    });
    for (let attempt = 0; attempt < 3; attempt++) {
      await expect(callThrough(a.info().mcp, auth)).rejects.toThrow('the user closed the window');
    }
    await expect(callThrough(a.info().mcp, auth)).rejects.toMatchObject({
      name: 'LimitError',
      limit: 'maxAttempts',
      value: 3,
    });

    const client = await bed.connect(b.info().mcp, auth);
    expect((await client.listTools()).length).toBeGreaterThan(0);
    await Promise.all([a.close(), b.close()]);
  });

  it('a request made while its server is being authorized waits, then carries the new token (one authorization)', async () => {
    const server = await startHostileOAuthServer();
    try {
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let discovering = false;
      // Held during discovery: before the flow has bound the server to its authorization server.
      server.route('/.well-known/oauth-authorization-server', async (_req, res) => {
        discovering = true;
        await held;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ issuer: server.origin, token_endpoint: `${server.origin}/token` }));
      });
      const auth = new OAuthProvider({
        grant: { type: 'client_credentials', issuer: server.origin, client: { client_id: 'm', client_secret: 'x' } },
      });
      const first = callThrough(`${server.base}/mcp`, auth);
      await expect.poll(() => discovering, { timeout: 5000 }).toBe(true);
      const second = callThrough(`${server.base}/mcp`, auth);
      release();
      expect((await first).status).toBe(200);
      expect((await second).status).toBe(200);
      expect(server.seen.filter((request) => request.path === '/token')).toHaveLength(1);
      // The second request went out once, with the token: it never met a 401.
      expect(server.seen.filter((request) => request.path === '/mcp')).toHaveLength(3);
    } finally {
      await server.close();
    }
  });
});
