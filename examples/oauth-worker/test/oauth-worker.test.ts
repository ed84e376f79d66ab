import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthServers, startAuthServers } from '../../../test-servers/auth/serve.mjs';

interface KvAccess {
  list(): Promise<{ keys: Array<{ name: string }> }>;
  get(key: string): Promise<string | null>;
}

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const bundle = `${repoRoot}packages/core/dist/core.bundle.js`;
const WORKER = 'https://worker.test';

let servers: AuthServers;
const workers: Miniflare[] = [];
beforeAll(async () => {
  if (!existsSync(bundle)) throw new Error('build @mcp/core first: pnpm -r build');
  servers = await startAuthServers();
});
afterAll(async () => {
  await Promise.all(workers.map((mf) => mf.dispose()));
  await servers?.close();
});

/** The example Worker in workerd, for the MCP server at `mcpUrl`. */
function startWorker(mcpUrl: string) {
  const mf = new Miniflare({
    modules: true,
    scriptPath: `${repoRoot}examples/oauth-worker/worker.js`,
    modulesRoot: repoRoot,
    modulesRules: [{ type: 'ESModule', include: ['**/*.js'] }],
    compatibilityDate: '2025-09-01',
    bindings: { MCP_URL: mcpUrl },
    kvNamespaces: ['OAUTH_KV'],
  });
  workers.push(mf);
  return {
    /** One invocation; redirects are not followed (the test plays the browser). */
    async get(url: string) {
      const response = await mf.dispatchFetch(url, { redirect: 'manual' });
      const location = response.headers.get('location');
      const body = await response.text();
      return { status: response.status, location, body };
    },
    async kv() {
      // Miniflare's KV type resolves to Request without @cloudflare/workers-types: name the methods used.
      return (await mf.getKVNamespace('OAUTH_KV')) as unknown as KvAccess;
    },
  };
}

describe('a Worker holding OAuth tokens in KV', () => {
  it('sends the user to the AS, finishes at /callback, then calls across invocations and refreshes', async () => {
    const scenario = await servers.createScenario({ inner: 'stateless' });
    const { mcp, issuer } = scenario.info();
    const worker = startWorker(mcp);
    const callUrl = `${WORKER}/call?tool=echo&text=one`;

    // Invocation 1: the server wants a token, so the user goes to the AS.
    const first = await worker.get(callUrl);
    expect(first).toMatchObject({ status: 302, body: '' });
    const authorization = new URL(first.location ?? '');
    expect(`${authorization.origin}${authorization.pathname}`).toBe(`${issuer}/oauth/authorize`);
    expect(authorization.searchParams.get('redirect_uri')).toBe(`${WORKER}/callback`);
    expect(authorization.searchParams.get('resource')).toBe(mcp);

    // The browser at the (auto-approving) AS, then back at the Worker: invocation 2.
    const approved = await fetch(authorization, { redirect: 'manual' });
    const callback = approved.headers.get('location') ?? '';
    expect(callback.startsWith(`${WORKER}/callback?`)).toBe(true);
    const finished = await worker.get(callback);
    expect(finished).toMatchObject({ status: 302, location: callUrl });

    // Invocations 3 and 4: tokens from KV, no OAuth traffic at all.
    expect(JSON.parse((await worker.get(callUrl)).body)).toEqual({ text: 'one', isError: false });
    expect(JSON.parse((await worker.get(`${WORKER}/call?tool=echo&text=two`)).body)).toMatchObject({ text: 'two' });
    const oauthTraffic = () => scenario.stats().requests.filter((entry) => entry.server === 'as');
    expect(oauthTraffic().map((entry) => `${entry.httpMethod} ${entry.path}`)).toEqual([
      'GET /.well-known/oauth-authorization-server',
      'POST /oauth/register',
      'GET /oauth/authorize',
      'POST /oauth/token',
    ]);
    expect(scenario.stats().registrations[0]?.metadata).toMatchObject({
      redirect_uris: [`${WORKER}/callback`],
      application_type: 'web',
    });

    // The tokens expire: the next invocation refreshes (rotation kept in KV) and calls.
    const kv = await worker.kv();
    const tokensKey = (await kv.list()).keys.map((key) => key.name).find((name) => name.startsWith('oauth:tokens:'));
    const before = JSON.parse((await kv.get(tokensKey ?? '')) ?? '{}') as { refresh_token?: string };
    scenario.expireTokens();
    expect(JSON.parse((await worker.get(`${WORKER}/call?tool=echo&text=three`)).body)).toMatchObject({ text: 'three' });
    const refreshes = oauthTraffic().filter((entry) => entry.form?.grant_type === 'refresh_token');
    expect(refreshes.map((entry) => entry.form?.resource)).toEqual([mcp]);
    const after = JSON.parse((await kv.get(tokensKey ?? '')) ?? '{}') as { refresh_token?: string };
    expect(after.refresh_token).toEqual(expect.any(String));
    expect(after.refresh_token).not.toBe(before.refresh_token);

    // Nothing left half-done, and no token ever in a URL.
    const keys = (await kv.list()).keys.map((key) => key.name);
    expect(keys.filter((name) => name.startsWith('oauth:pending:') || name.startsWith('return:'))).toEqual([]);
    expect(scenario.stats().tokensInUrls).toEqual([]);
  });

  it('refuses a callback whose state it never issued', async () => {
    const scenario = await servers.createScenario();
    const worker = startWorker(scenario.info().mcp);
    const forged = await worker.get(
      `${WORKER}/callback?code=abc&state=forged&iss=${encodeURIComponent(scenario.info().issuer)}`,
    );
    expect(forged.status).toBe(400);
    expect(forged.body).toContain('AuthError');
    expect(scenario.stats().requests).toEqual([]);
  });
});
