import { describe, expect, it } from 'vitest';
import { MemoryStore, prefixedStore, type Store } from '../../src/connections/index.js';

describe('prefixedStore', () => {
  it('reads and writes under the prefix, leaving other keys alone', async () => {
    const store = new MemoryStore();
    await store.set('other', 1);
    const view = prefixedStore(store, 'mcp:oauth:');
    await view.set('tokens:a', { access_token: 'x' });
    expect(await store.get('mcp:oauth:tokens:a')).toEqual({ access_token: 'x' });
    expect(await view.get('tokens:a')).toEqual({ access_token: 'x' });
    expect(await view.get('other')).toBeUndefined();
    await view.delete('tokens:a');
    expect(await store.get('mcp:oauth:tokens:a')).toBeUndefined();
    expect(await store.get('other')).toBe(1);
  });

  it('updates the prefixed key through the underlying store, and nests', async () => {
    const store = new MemoryStore();
    const view = prefixedStore(prefixedStore(store, 'mcp:'), 'oauth:');
    await Promise.all([1, 2, 3].map(() => view.update('n', (n) => (typeof n === 'number' ? n + 1 : 1))));
    expect(await store.get('mcp:oauth:n')).toBe(3);
  });

  it('passes `atomic` through', () => {
    const eventual: Store = Object.assign(new MemoryStore(), { atomic: false as const });
    expect(prefixedStore(eventual, 'p:').atomic).toBe(false);
    expect(prefixedStore(new MemoryStore(), 'p:').atomic).toBeUndefined();
  });
});
