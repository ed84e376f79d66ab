import { describe, expect, it } from 'vitest';
import { StoredKeys } from '../../src/auth/stored-keys.js';
import { prefixedStore } from '../../src/connections/prefixed-store.js';
import { MemoryStore } from '../../src/connections/stores/memory-store.js';

describe('the list of stored keys, kept by instances that share a store', () => {
  it('loses no key when two instances (two tabs, two processes) list keys at once', async () => {
    // Two store objects over one backing store: what two tabs over one localStorage, or two
    // processes over one Redis, look like to the provider. Only the backing store's update
    // excludes one from the other.
    const shared = new MemoryStore();
    const first = new StoredKeys(prefixedStore(shared, 'app:'));
    const second = new StoredKeys(prefixedStore(shared, 'app:'));
    await Promise.all([first.add('tokens:a'), second.add('tokens:b'), first.add('server:a'), second.add('server:b')]);
    expect((await first.list()).sort()).toEqual(['server:a', 'server:b', 'tokens:a', 'tokens:b']);
    await Promise.all([first.delete('tokens:a'), second.delete('server:b')]);
    expect((await second.list()).sort()).toEqual(['server:a', 'tokens:b']);
  });

  it('reads a list someone else damaged as empty and starts it over', async () => {
    const shared = new MemoryStore();
    await shared.set('keys', { not: 'a list' });
    const keys = new StoredKeys(shared);
    await keys.add('tokens:a');
    expect(await keys.list()).toEqual(['tokens:a']);
  });
});
