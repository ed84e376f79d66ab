/**
 * @mcp/core/connections: the layer above `Client` that an app shows and keeps —
 * a connection to one server with a state a UI can watch, a set of servers that
 * persists through a store, and the stores.
 *
 * @module @mcp/core/connections
 */
export type {
  ConnectionEvent,
  ConnectionSnapshot,
  ConnectionState,
  ConnectionStatus,
} from './connection-state.js';
export type { PendingElicitation, PendingRequest, PendingSampling } from './pending-request.js';
export { prefixedStore } from './prefixed-store.js';
export type { Store } from './store.js';
export {
  type DurableObjectStorageLike,
  DurableObjectStore,
  type DurableObjectStoreOptions,
} from './stores/durable-object-store.js';
export { type KvNamespaceLike, KvStore, type KvStoreOptions } from './stores/kv-store.js';
export { MemoryStore } from './stores/memory-store.js';
