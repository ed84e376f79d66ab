import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkedWorkers } from '../../../runtimes/workerd/checked-workers.js';
import { readWranglerConfig } from '../../../runtimes/workerd/wrangler-config.js';
import { type AuthServers, startAuthServers } from '../../../test-servers/auth/serve.mjs';

interface KvAccess {
  list(): Promise<{ keys: Array<{ name: string }> }>;
  get(key: string): Promise<string | null>;
}

const WORKER = 'https://worker.test';
/** The main module, bindings and compatibility date a deployment gets. */
const config = readWranglerConfig(new URL('../', import.meta.url));
const SESSION_SECRET = 'the-operators-session-secret-0123456789';

let servers: AuthServers;
/** The Worker as wrangler would deploy it: worker.js with @mcp/core inlined. */
let bundle: string;
const workers = checkedWorkers();
beforeAll(async () => {
  bundle = await workers.bundle(config.main);
  servers = await startAuthServers();
});
afterAll(async () => {
  await servers?.close();
});

/** The example Worker in workerd, for the MCP server at `mcpUrl`. */
function startWorker(mcpUrl: string) {
  const { mf } = workers.start(bundle, {
    bindings: { MCP_URL: mcpUrl, SESSION_SECRET },
    kvNamespaces: config.kvNamespaces,
    compatibilityDate: config.compatibilityDate,
  });
  const cookies = new Map<string, string>();
  /** The `Cookie` header of `name`, logged in at POST /login once. */
  const cookie = async (name: string) => {
    const known = cookies.get(name);
    if (known !== undefined) return known;
    const response = await mf.dispatchFetch(`${WORKER}/login?name=${name}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SESSION_SECRET}` },
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const header = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    cookies.set(name, header);
    return header;
  };
  return {
    cookie,
    /** One invocation as `as` (ann unless said; `null`: with no cookie); redirects are not followed (the test plays the browser). */
    async get(url: string, as: string | null = 'ann', headers: Record<string, string> = {}) {
      const sent = as === null ? headers : { cookie: await cookie(as), ...headers };
      const response = await mf.dispatchFetch(url, { redirect: 'manual', headers: sent });
      const location = response.headers.get('location');
      const body = await response.text();
      return { status: response.status, location, body };
    },
    async post(url: string, headers: Record<string, string>) {
      const response = await mf.dispatchFetch(url, { method: 'POST', headers });
      await response.arrayBuffer();
      return { status: response.status };
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
    const tokensKey = (await kv.list()).keys.map((key) => key.name).find((name) => name.startsWith('user:ann:tokens:'));
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
    expect(keys.filter((name) => name.includes('pending:') || name.startsWith('return:'))).toEqual([]);
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

describe('who may use the tokens', () => {
  it('refuses a caller with no cookie, or a forged or tampered one, with 401 before any OAuth or KV work', async () => {
    const scenario = await servers.createScenario();
    const worker = startWorker(scenario.info().mcp);
    const ann = (await worker.cookie('ann')).split('=')[1] ?? '';
    const [, expiry, mac] = ann.split('.');
    const later = Math.floor(Date.now() / 1000) + 3600;
    const refused = [
      undefined,
      `__Host-caller=ann.${later}.${'0'.repeat(64)}`,
      `__Host-caller=bob.${expiry}.${mac}`,
      `__Host-caller=ann.${Number(expiry) + 3600}.${mac}`,
      `__Host-caller=${ann}; __Host-caller=${ann}`,
    ];
    for (const cookie of refused) {
      for (const path of ['/call?tool=echo&text=hi', '/callback?code=c&state=s']) {
        const answer = await worker.get(`${WORKER}${path}`, null, cookie === undefined ? {} : { cookie });
        expect({ cookie, path, status: answer.status }).toEqual({ cookie, path, status: 401 });
      }
    }
    expect(scenario.stats().requests).toEqual([]);
    expect((await (await worker.kv()).list()).keys).toEqual([]);
    // Login takes the operator's secret only.
    const wrong = await workerLogin(worker, 'Bearer not-the-secret');
    expect(wrong).toBe(401);
  });

  it("finishes a callback only for the caller whose flow issued its state, and keeps each caller's tokens apart", async () => {
    const scenario = await servers.createScenario({ inner: 'stateless' });
    const worker = startWorker(scenario.info().mcp);
    const approvedCallback = async (as: string) => {
      const started = await worker.get(`${WORKER}/call?tool=echo&text=${as}`, as);
      expect(started.status).toBe(302);
      const approved = await fetch(started.location ?? '', { redirect: 'manual' });
      return approved.headers.get('location') ?? '';
    };
    const tokenRequests = () =>
      scenario.stats().requests.filter((entry) => entry.server === 'as' && entry.path === '/oauth/token').length;
    const annCallback = await approvedCallback('ann');

    // Bob brings ann's callback (to take her account, or plant his on her): refused, nothing redeemed.
    const stolen = await worker.get(annCallback, 'bob');
    expect(stolen.status).toBe(400);
    expect(stolen.body).toContain('no pending authorization has the state of this response');
    expect(tokenRequests()).toBe(0);
    // Ann's own flow was untouched: she finishes it, and her call runs with her token.
    expect((await worker.get(annCallback, 'ann')).status).toBe(302);
    expect(JSON.parse((await worker.get(`${WORKER}/call?tool=echo&text=mine`, 'ann')).body)).toMatchObject({
      text: 'mine',
    });
    // A replay is refused; bob has no token of ann's: he is sent to authorize.
    expect((await worker.get(annCallback, 'ann')).status).toBe(400);
    expect((await worker.get(`${WORKER}/call?tool=echo&text=bob`, 'bob')).status).toBe(302);
    expect(tokenRequests()).toBe(1);
  });
});

/** The status of a login with `authorization`. */
async function workerLogin(worker: ReturnType<typeof startWorker>, authorization: string): Promise<number> {
  return (await worker.post(`${WORKER}/login?name=ann`, { authorization })).status;
}
