import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalStorageOAuthStore, LocalStorageStore } from '../../src/browser/index.js';
import { StoreError } from '../../src/connections/index.js';
import { AuthError } from '../../src/index.js';
import { storeContract } from '../connections/store-contract.js';
import { FakeStorage } from './fake-storage.js';

// What Node can check of LocalStorageStore: Web Storage's rules through a storage that keeps them, and
// the store without Web Locks (Node has none). The locks across tabs run in real Chromium, in
// e2e/local-storage-store.spec.ts.

afterEach(() => {
  vi.unstubAllGlobals();
});

// The shared contract, one instance at a time (Node has no Web Locks to share an update with a peer).
storeContract(
  'LocalStorageStore over a Web Storage in memory',
  async () => {
    const storage = new FakeStorage();
    return {
      store: new LocalStorageStore({ storage, prefix: 'app:' }),
      plantGarbage: async (key) => storage.setItem(`app:${key}`, '{"access_token": "trunc'),
    };
  },
  { garbage: 'undefined' },
);

/** A promise and the function that settles it. */
function deferred<T = void>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

describe('LocalStorageStore', () => {
  it('keeps values as JSON under the key itself by default, or under a prefix', async () => {
    const storage = new FakeStorage();
    const plain = new LocalStorageStore({ storage });
    const prefixed = new LocalStorageStore({ storage, prefix: 'app:' });
    await plain.set('mcp:config:weather', { name: 'weather', url: 'https://mcp.example/mcp' });
    await prefixed.set('mcp:configs', ['weather']);
    expect(storage.keys().sort()).toEqual(['app:mcp:configs', 'mcp:config:weather']);
    expect(storage.getItem('mcp:config:weather')).toBe('{"name":"weather","url":"https://mcp.example/mcp"}');
    expect(await prefixed.get('mcp:config:weather')).toBeUndefined();
    expect(await prefixed.get('mcp:configs')).toEqual(['weather']);
  });

  it('reads an entry that is not JSON as not stored, and an update starts from undefined and replaces it', async () => {
    const storage = new FakeStorage();
    storage.setItem('mcp:session:a', '{"sessionId": "trunc');
    const store = new LocalStorageStore({ storage });
    expect(await store.get('mcp:session:a')).toBeUndefined();
    const seen: unknown[] = [];
    await store.update('mcp:session:a', (current) => {
      seen.push(current);
      return { sessionId: 's' };
    });
    expect(seen).toEqual([undefined]);
    expect(await store.get('mcp:session:a')).toEqual({ sessionId: 's' });
  });

  it('update resolves to what the change returned, and undefined deletes the key', async () => {
    const storage = new FakeStorage();
    const store = new LocalStorageStore({ storage });
    await store.set('n', 1);
    expect(await store.update('n', (current) => (current as number) + 1)).toBe(2);
    expect(await store.get('n')).toBe(2);
    expect(await store.update('n', () => undefined)).toBeUndefined();
    expect(storage.keys()).toEqual([]);
  });

  it('an update whose write passes the quota rejects with AuthError store_failed, and the old value stays', async () => {
    const storage = new FakeStorage(200);
    const store = new LocalStorageStore({ storage });
    await store.set('tokens', { access_token: 'small' });
    let runs = 0;
    const failure = await store
      .update('tokens', () => {
        runs++;
        return { access_token: 'x'.repeat(500) };
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AuthError);
    expect(failure).toMatchObject({ code: 'store_failed', cause: { name: 'QuotaExceededError' } });
    expect(runs).toBe(1);
    expect(await store.get('tokens')).toEqual({ access_token: 'small' });
  });

  it('refuses a value JSON cannot hold with StoreError invalid_value, and keeps what was stored', async () => {
    const store = new LocalStorageStore({ storage: new FakeStorage() });
    await store.set('k', 'kept');
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    for (const value of [10n, cycle, () => 'f']) {
      await expect(store.set('k', value)).rejects.toMatchObject({
        name: 'StoreError',
        code: 'invalid_value',
        key: 'k',
      });
    }
    await expect(store.update('k', () => 1n)).rejects.toMatchObject({ code: 'invalid_value' });
    expect(await store.get('k')).toBe('kept');
  });

  it('a change that throws rejects the update with its error and leaves the value as it was', async () => {
    const store = new LocalStorageStore({ storage: new FakeStorage() });
    await store.set('k', 'before');
    const thrown = new Error('refresh refused');
    await expect(
      store.update('k', () => {
        throw thrown;
      }),
    ).rejects.toBe(thrown);
    expect(await store.get('k')).toBe('before');
    expect(await store.update('k', (current) => `${String(current)}+after`)).toBe('before+after');
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31])(
    'refuses lockWaitMs %s with a RangeError',
    (lockWaitMs) => {
      expect(() => new LocalStorageStore({ lockWaitMs })).toThrow(RangeError);
    },
  );
});

describe('LocalStorageStore without Web Locks', () => {
  it('says so with atomic false, and runs this store’s updates of one key one at a time, in order', async () => {
    vi.stubGlobal('navigator', undefined);
    const store = new LocalStorageStore({ storage: new FakeStorage() });
    expect(store.atomic).toBe(false);
    const order: number[] = [];
    const updates = Array.from({ length: 20 }, (_, index) =>
      store.update('counter', async (current) => {
        order.push(index);
        // A change that awaits, as a token refresh does: the next one must still wait for it.
        await new Promise((resolve) => setTimeout(resolve, 1));
        return ((current as number | undefined) ?? 0) + 1;
      }),
    );
    expect(await Promise.all(updates)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    expect(order).toEqual(Array.from({ length: 20 }, (_, index) => index));
    expect(await store.get('counter')).toBe(20);
  });

  it('locks: false turns Web Locks off even where the browser has them', () => {
    const locks = { request: vi.fn() } as unknown as LockManager;
    vi.stubGlobal('navigator', { locks });
    expect(new LocalStorageStore().atomic).toBe(true);
    expect(new LocalStorageStore({ locks: false }).atomic).toBe(false);
  });

  it('an update of another key does not wait for a change that hangs', async () => {
    const store = new LocalStorageStore({ storage: new FakeStorage(), locks: false });
    const hang = deferred();
    const held = store.update('a', () => hang.promise);
    expect(await store.update('b', () => 'b')).toBe('b');
    hang.resolve();
    await held;
  });

  it('waits at most lockWaitMs behind a change that hangs, then rejects with StoreError lock_timeout and never runs its change', async () => {
    const store = new LocalStorageStore({ storage: new FakeStorage(), locks: false, lockWaitMs: 50 });
    const hang = deferred();
    const held = store.update('tokens', async () => {
      await hang.promise;
      return 'first';
    });
    let ran = false;
    const started = Date.now();
    const failure = await store
      .update('tokens', () => {
        ran = true;
        return 'second';
      })
      .catch((error: unknown) => error);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(failure).toBeInstanceOf(StoreError);
    expect(failure).toMatchObject({
      code: 'lock_timeout',
      key: 'tokens',
      message: expect.stringContaining('lockWaitMs'),
    });
    hang.resolve();
    expect(await held).toBe('first');
    // The update that gave up stays given up; the key is free again for the next one.
    expect(await store.update('tokens', (current) => `${String(current)}+third`)).toBe('first+third');
    expect(ran).toBe(false);
  });
});

describe('LocalStorageStore over a LockManager', () => {
  it('takes the lock named for the prefix and the key, and runs the change inside it', async () => {
    const names: string[] = [];
    const locks = {
      request: (name: string, _options: LockOptions, callback: LockGrantedCallback<unknown>) => {
        names.push(name);
        return Promise.resolve(callback(null));
      },
    } as unknown as LockManager;
    const store = new LocalStorageStore({ storage: new FakeStorage(), prefix: 'app:', locks });
    expect(store.atomic).toBe(true);
    expect(await store.update('mcp:oauth:tokens:x', () => 'v')).toBe('v');
    expect(names).toEqual(['@mcp/core store app:mcp:oauth:tokens:x']);
  });

  it('a lock the browser refuses (an opaque origin) rejects with AuthError store_failed, and the change never runs', async () => {
    const locks = {
      request: () => Promise.reject(new DOMException('Access to the Locks API is denied.', 'SecurityError')),
    } as unknown as LockManager;
    const store = new LocalStorageStore({ storage: new FakeStorage(), locks });
    let ran = false;
    const failure = await store
      .update('k', () => {
        ran = true;
      })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: 'AuthError', code: 'store_failed', cause: { name: 'SecurityError' } });
    expect(ran).toBe(false);
  });
});

describe('LocalStorageOAuthStore', () => {
  it('is the same store under its old default prefix, update included', async () => {
    const storage = new FakeStorage();
    const store = new LocalStorageOAuthStore({ storage, locks: false });
    expect(store).toBeInstanceOf(LocalStorageStore);
    await store.update('keys', () => ['tokens:x']);
    expect(storage.keys()).toEqual(['mcp-oauth:keys']);
  });
});
