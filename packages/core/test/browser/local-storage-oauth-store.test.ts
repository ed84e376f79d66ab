import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalStorageOAuthStore } from '../../src/browser/index.js';
import { AuthError, Client, OAuthProvider, StreamableHttpTransport } from '../../src/index.js';
import { approve, REDIRECT_URI, useAuthServers } from '../auth/auth-scenarios.js';
import { FakeStorage } from './fake-storage.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('LocalStorageOAuthStore', () => {
  it('keeps values as JSON under its prefix and leaves the app’s own keys alone', async () => {
    const storage = new FakeStorage();
    storage.setItem('theme', 'dark');
    const store = new LocalStorageOAuthStore({ storage });
    await store.set('tokens:https://as.example|https://mcp.example/mcp', { access_token: 'a', expires_at: 1 });
    expect(storage.keys().sort()).toEqual(['mcp-oauth:tokens:https://as.example|https://mcp.example/mcp', 'theme']);
    expect(await store.get('tokens:https://as.example|https://mcp.example/mcp')).toEqual({
      access_token: 'a',
      expires_at: 1,
    });
    await store.delete('tokens:https://as.example|https://mcp.example/mcp');
    await store.delete('never-stored');
    expect(storage.keys()).toEqual(['theme']);
    expect(await store.get('theme')).toBeUndefined();
  });

  it('keeps two prefixes apart in one storage', async () => {
    const storage = new FakeStorage();
    const alice = new LocalStorageOAuthStore({ storage, prefix: 'alice:' });
    const bob = new LocalStorageOAuthStore({ storage, prefix: 'bob:' });
    await alice.set('client:https://as.example', { client_id: 'a' });
    expect(await bob.get('client:https://as.example')).toBeUndefined();
    expect(await alice.get('client:https://as.example')).toEqual({ client_id: 'a' });
  });

  it('returns a copy: changing what get() returned changes nothing stored', async () => {
    const store = new LocalStorageOAuthStore({ storage: new FakeStorage() });
    await store.set('keys', ['a']);
    const read = (await store.get('keys')) as string[];
    read.push('b');
    expect(await store.get('keys')).toEqual(['a']);
  });

  it('reads an entry that is not JSON as not stored, and a later set replaces it', async () => {
    const storage = new FakeStorage();
    storage.setItem('mcp-oauth:pending:abc', '{"verifier": "trunc');
    const store = new LocalStorageOAuthStore({ storage });
    expect(await store.get('pending:abc')).toBeUndefined();
    await store.set('pending:abc', { verifier: 'v' });
    expect(await store.get('pending:abc')).toEqual({ verifier: 'v' });
  });

  it('removes the key when set to undefined, so it reads back as undefined', async () => {
    const storage = new FakeStorage();
    const store = new LocalStorageOAuthStore({ storage });
    await store.set('keys', ['a']);
    await store.set('keys', undefined);
    expect(storage.keys()).toEqual([]);
    expect(await store.get('keys')).toBeUndefined();
  });

  it('rejects a write past the quota with AuthError store_failed, and the old value stays', async () => {
    const storage = new FakeStorage(200);
    const store = new LocalStorageOAuthStore({ storage });
    await store.set('tokens:x', { access_token: 'small' });
    const failure = await store.set('tokens:x', { access_token: 'x'.repeat(500) }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AuthError);
    expect(failure).toMatchObject({ code: 'store_failed', cause: { name: 'QuotaExceededError' } });
    expect((failure as Error).message).toContain('QuotaExceededError');
    expect((failure as Error).message).not.toContain('xxxx');
    expect(await store.get('tokens:x')).toEqual({ access_token: 'small' });
  });

  it('rejects with AuthError store_failed when the browser refuses Web Storage altogether', async () => {
    const refusing = new FakeStorage();
    refusing.getItem = () => {
      throw new DOMException('Access is denied for this document.', 'SecurityError');
    };
    const store = new LocalStorageOAuthStore({ storage: refusing });
    await expect(store.get('keys')).rejects.toMatchObject({ name: 'AuthError', code: 'store_failed' });
  });

  it('reads globalThis.localStorage at each call, and names the problem when there is none', async () => {
    const store = new LocalStorageOAuthStore();
    vi.stubGlobal('localStorage', undefined);
    await expect(store.get('keys')).rejects.toMatchObject({ code: 'store_failed', message: /pass one as `storage`/ });
    const first = new FakeStorage();
    vi.stubGlobal('localStorage', first);
    await store.set('keys', ['a']);
    const second = new FakeStorage();
    vi.stubGlobal('localStorage', second);
    expect(await store.get('keys')).toBeUndefined();
    expect(first.keys()).toEqual(['mcp-oauth:keys']);
  });
});

describe('LocalStorageOAuthStore with OAuthProvider', () => {
  const bed = useAuthServers();

  it('a full-page flow finishes on the next page from what the first one stored', async () => {
    const scenario = await bed.servers().createScenario();
    const { mcp } = scenario.info();
    const storage = new FakeStorage();
    let callback: URL | undefined;
    const leaving = new OAuthProvider({
      store: new LocalStorageOAuthStore({ storage }),
      redirectUri: REDIRECT_URI,
      authorize: async (authorizationUrl) => {
        callback = await approve(authorizationUrl);
        throw new AuthError('redirect_started', 'the page went to the authorization server');
      },
    });
    await expect(bed.connect(mcp, leaving)).rejects.toMatchObject({ code: 'redirect_started' });
    expect(storage.keys().some((key) => key.startsWith('mcp-oauth:pending:'))).toBe(true);

    // The page the user comes back to: a new provider and a new store over the same storage.
    const back = new OAuthProvider({
      store: new LocalStorageOAuthStore({ storage }),
      redirectUri: REDIRECT_URI,
      authorize: () => Promise.reject(new Error('no second authorization')),
    });
    await back.finishAuthorization(String(callback));
    const client = new Client(new StreamableHttpTransport(mcp, { auth: back }), { requestTimeout: 10_000 });
    try {
      await client.connect();
      expect((await client.listTools()).length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
    expect(storage.keys().some((key) => key.startsWith('mcp-oauth:tokens:'))).toBe(true);
    expect(storage.keys().some((key) => key.startsWith('mcp-oauth:pending:'))).toBe(false);
  });
});
