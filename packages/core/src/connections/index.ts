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
export { DEFAULT_LEASE_MS, DEFAULT_LOCK_WAIT_MS, type LeaseOptions, leaseBounds } from './lease.js';
export type { PendingElicitation, PendingRequest, PendingSampling } from './pending-request.js';
export { prefixedStore } from './prefixed-store.js';
export type { Store } from './store.js';
export { StoreError, type StoreErrorCode } from './store-error.js';
export { decodeStoreValue, encodeStoreValue } from './store-json.js';
export { MemoryStore } from './stores/memory-store.js';
export { type RedisCommandClient, RedisStore, type RedisStoreOptions } from './stores/redis-store.js';
