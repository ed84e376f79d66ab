import { describe, expect, it } from 'vitest';
import { AuthError, type OAuthOptions, OAuthProvider, type OAuthStore } from '../../src/index.js';
import { approve, REDIRECT_URI, useAuthServers } from './auth-scenarios.js';
import { callThrough, json, startHostileOAuthServer } from './hostile-oauth-server.js';

/** What an OAuthProvider leaves in its store: nothing secret while the user is away, nothing after sign-out. */
const bed = useAuthServers();

/** A store the test can look into, as localStorage would let it. */
class InspectableStore implements OAuthStore {
  readonly entries = new Map<string, unknown>();
  async get(key: string): Promise<unknown> {
    return structuredClone(this.entries.get(key));
  }
  async set(key: string, value: unknown): Promise<void> {
    this.entries.set(key, structuredClone(value));
  }
  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }
  keys(prefix: string): string[] {
    return [...this.entries.keys()].filter((key) => key.startsWith(prefix));
  }
}

async function listTools(url: string, options: OAuthOptions): Promise<number> {
  const client = await bed.connect(url, new OAuthProvider(options));
  return (await client.listTools()).length;
}

const CONFIDENTIAL = { client_id: 'confidential', client_secret: 'pending-s3cret' };

/** A scenario whose AS knows only a pre-registered confidential client, and the options that use it. */
async function confidentialScenario(store: OAuthStore) {
  const scenario = await bed.servers().createScenario({
    dcr: false,
    clients: [{ ...CONFIDENTIAL, token_endpoint_auth_method: 'client_secret_basic', redirect_uris: [REDIRECT_URI] }],
  });
  const options = { store, redirectUri: REDIRECT_URI, clients: { [scenario.info().issuer]: CONFIDENTIAL } };
  return { scenario, options };
}

/** A full-page flow: the page leaves for the authorization server; the callback URL it would come back to. */
async function leaveForTheServer(url: string, options: OAuthOptions): Promise<URL> {
  let callback: URL | undefined;
  const left = listTools(url, {
    ...options,
    authorize: async (authorizationUrl) => {
      callback = await approve(authorizationUrl);
      throw new AuthError('redirect_started', 'the page went to the authorization server');
    },
  });
  await expect(left).rejects.toMatchObject({ code: 'redirect_started' });
  return callback as URL;
}

describe('OAuth store hygiene', () => {
  it('signOut removes tokens that an earlier provider (a page before a reload) stored', async () => {
    const scenario = await bed.servers().createScenario();
    const store = new InspectableStore();
    let asked = 0;
    const options: OAuthOptions = {
      store,
      redirectUri: REDIRECT_URI,
      authorize: (url) => {
        asked++;
        return approve(url);
      },
    };
    expect(await listTools(scenario.info().mcp, options)).toBeGreaterThan(0);
    expect(store.keys('tokens:')).toHaveLength(1);

    const reloaded = new OAuthProvider(options);
    await reloaded.signOut();
    expect(store.keys('tokens:')).toEqual([]);
    expect(store.keys('server:')).toEqual([]);
    expect(store.keys('client:')).toHaveLength(1);
    // Signed out for real: the next connection has to ask the user again.
    expect(await listTools(scenario.info().mcp, options)).toBeGreaterThan(0);
    expect(asked).toBe(2);
    await scenario.close();
  });

  it('two providers on one store authorizing at once both list their keys: signOut removes both', async () => {
    const [first, second] = await Promise.all([bed.servers().createScenario(), bed.servers().createScenario()]);
    // Reading the key list takes a while, as it might in a remote store: changes that are not queued overlap.
    const store = new (class extends InspectableStore {
      override async get(key: string): Promise<unknown> {
        const value = await super.get(key);
        if (key === 'keys') await new Promise((resolve) => setTimeout(resolve, 30));
        return value;
      }
    })();
    const options: OAuthOptions = { store, redirectUri: REDIRECT_URI, authorize: approve };
    const counts = await Promise.all([listTools(first.info().mcp, options), listTools(second.info().mcp, options)]);
    expect(counts.every((count) => count > 0)).toBe(true);
    expect(store.keys('tokens:')).toHaveLength(2);
    expect(store.entries.get('keys')).toEqual(
      expect.arrayContaining([...store.keys('tokens:'), ...store.keys('server:')]),
    );

    await new OAuthProvider(options).signOut();
    expect(store.keys('tokens:')).toEqual([]);
    expect(store.keys('server:')).toEqual([]);
    await Promise.all([first.close(), second.close()]);
  });

  it('keeps no client secret in the pending record, and deletes the record once used', async () => {
    const store = new InspectableStore();
    const confidential = await confidentialScenario(store);
    const scenario = confidential.scenario;
    const pendingSeen: string[] = [];
    const options: OAuthOptions = {
      ...confidential.options,
      authorize: (url) => {
        for (const key of store.keys('pending:')) pendingSeen.push(JSON.stringify(store.entries.get(key)));
        return approve(url);
      },
    };
    expect(await listTools(scenario.info().mcp, options)).toBeGreaterThan(0);
    expect(pendingSeen).toHaveLength(1);
    expect(pendingSeen[0]).toContain('"clientId":"confidential"');
    expect(pendingSeen[0]).not.toContain('pending-s3cret');
    expect(store.keys('pending:')).toEqual([]);
    await scenario.close();
  });

  it('finishes a confidential client’s full-page flow after a reload, the secret coming from the options', async () => {
    const store = new InspectableStore();
    const { scenario, options } = await confidentialScenario(store);
    const callback = await leaveForTheServer(scenario.info().mcp, options);
    expect(store.keys('pending:')).toHaveLength(1);
    expect(JSON.stringify(store.keys('pending:').map((key) => store.entries.get(key)))).not.toContain('pending-s3cret');

    await new OAuthProvider(options).finishAuthorization(callback);
    expect(store.keys('tokens:')).toHaveLength(1);
    expect(store.keys('pending:')).toEqual([]);
    await scenario.close();
  });

  it('refuses a callback after limits.pendingTtl (invalid_state), deleting the record', async () => {
    const scenario = await bed.servers().createScenario();
    const store = new InspectableStore();
    const options = { store, redirectUri: REDIRECT_URI, limits: { pendingTtl: 100 } };
    const callback = await leaveForTheServer(scenario.info().mcp, options);
    expect(store.keys('pending:')).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 150));

    const failure = new OAuthProvider(options).finishAuthorization(callback);
    await expect(failure).rejects.toMatchObject({ name: 'AuthError', code: 'invalid_state' });
    await expect(failure).rejects.toThrow(/expired/);
    expect(store.keys('pending:')).toEqual([]);
    await scenario.close();
  });

  it('sweeps expired pending records when a new authorization starts, and signOut deletes the rest', async () => {
    const scenario = await bed.servers().createScenario();
    const store = new InspectableStore();
    const options = { store, redirectUri: REDIRECT_URI, limits: { pendingTtl: 100 } };
    await leaveForTheServer(scenario.info().mcp, options);
    const [first] = store.keys('pending:');
    await new Promise((resolve) => setTimeout(resolve, 150));
    await leaveForTheServer(scenario.info().mcp, { ...options, limits: { pendingTtl: 60_000 } });
    const left = store.keys('pending:');
    expect(left).toHaveLength(1);
    expect(left).not.toContain(first);

    await new OAuthProvider(options).signOut();
    expect(store.keys('pending:')).toEqual([]);
    await scenario.close();
  });
});

describe('OAuth store reads', () => {
  /** A memory store that counts what is read from it. */
  class CountingStore extends InspectableStore {
    reads = 0;
    override get(key: string): Promise<unknown> {
      this.reads++;
      return super.get(key);
    }
  }

  it('reads the store once per successful call to a server that asks for no authorization', async () => {
    const server = await startHostileOAuthServer();
    try {
      server.route('/mcp', (_req, res) => json(res, 200, { ok: true }));
      const store = new CountingStore();
      const auth = new OAuthProvider({ store });
      for (let i = 0; i < 20; i++) expect((await callThrough(`${server.base}/mcp`, auth)).status).toBe(200);
      // headers() looks for the server's binding; the response finds its server without another read.
      expect(store.reads).toBe(20);
    } finally {
      await server.close();
    }
  });

  it('reads only the tokens, once per successful call, once authorized', async () => {
    const server = await startHostileOAuthServer();
    try {
      const store = new CountingStore();
      const auth = new OAuthProvider({
        store,
        grant: { type: 'client_credentials', issuer: server.origin, client: { client_id: 'm', client_secret: 's' } },
      });
      expect((await callThrough(`${server.base}/mcp`, auth)).status).toBe(200);
      store.reads = 0;
      for (let i = 0; i < 20; i++) expect((await callThrough(`${server.base}/mcp`, auth)).status).toBe(200);
      expect(store.reads).toBe(20);
    } finally {
      await server.close();
    }
  });
});
