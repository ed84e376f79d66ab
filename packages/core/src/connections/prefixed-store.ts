import type { Store } from './store.js';

/**
 * A view of `store` in which every key is `prefix` + key: the connection layer
 * keeps its records under `mcp:` and hands the OAuthProvider a view under
 * `mcp:oauth:`, so several apps or several provider configs can share one
 * store without reading each other's keys. `update` runs on the underlying
 * store, so it excludes exactly what that store's update excludes; `atomic` is
 * passed through.
 */
export function prefixedStore(store: Store, prefix: string): Store {
  const view: Store = {
    get: (key) => store.get(prefix + key),
    set: (key, value) => store.set(prefix + key, value),
    delete: (key) => store.delete(prefix + key),
    update: (key, change) => store.update(prefix + key, change),
  };
  return store.atomic === undefined ? view : { ...view, atomic: store.atomic };
}
