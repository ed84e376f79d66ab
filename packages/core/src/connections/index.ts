/**
 * @mcp/core/connections: the layer above `Client` that an app shows and keeps —
 * a connection to one server with a state a UI can watch, a set of servers that
 * persists through a store, and the stores.
 *
 * @module @mcp/core/connections
 */
export {
  AuthorizationGate,
  type AuthorizationGateOptions,
  type AuthorizationGateState,
  DEFAULT_AUTHORIZATION_TIMEOUT,
  DEFAULT_FINISH_TIMEOUT,
} from './authorization-gate.js';
export { type CloseOptions, Connection, type ConnectionListener } from './connection.js';
export { ConnectionError, type ConnectionErrorCode } from './connection-error.js';
export type { ConnectionOptions, HealthCheckOptions, ListOptions, ReconnectOptions } from './connection-options.js';
export type {
  ConnectionEvent,
  ConnectionSnapshot,
  ConnectionState,
  ConnectionStatus,
  ListError,
  ListName,
} from './connection-state.js';
export { type FlowLock, type FlowTurn, MemoryFlowLock } from './flow-lock.js';
export { DEFAULT_LEASE_MS, DEFAULT_LOCK_WAIT_MS, type LeaseOptions, leaseBounds } from './lease.js';
export { DEFAULT_MAX_PENDING, PendingQueue, type PendingQueueOptions } from './pending-queue.js';
export type { PendingElicitation, PendingRequest, PendingSampling } from './pending-request.js';
export { prefixedStore } from './prefixed-store.js';
export type { ServerConfig } from './server-config.js';
export {
  DEFAULT_MAX_SERVERS,
  DEFAULT_READY_TIMEOUT,
  type ReadyOptions,
  Servers,
  type ServersOptions,
  type ServersSnapshot,
  type ServersToolOptions,
} from './servers.js';
export { DEFAULT_MAX_CONFIG_BYTES, type StoredConfig } from './set-config.js';
export type { Store } from './store.js';
export { StoreError, type StoreErrorCode } from './store-error.js';
export { decodeStoreValue, encodeStoreValue } from './store-json.js';
export {
  type DurableObjectStorageLike,
  DurableObjectStore,
  type DurableObjectStoreOptions,
} from './stores/durable-object-store.js';
export { type KvNamespaceLike, KvStore, type KvStoreOptions } from './stores/kv-store.js';
export { MemoryStore } from './stores/memory-store.js';
export { type RedisCommandClient, RedisStore, type RedisStoreOptions } from './stores/redis-store.js';
export {
  DEFAULT_MAX_DESCRIPTION_CHARS,
  DEFAULT_MAX_SCHEMA_BYTES,
  type ToolBounds,
  toolBounds,
} from './tool-bounds.js';
export {
  type CatalogueOptions,
  type CatalogueSource,
  type CatalogueTool,
  type ToolCatalogue,
  toolCatalogue,
} from './tool-catalogue.js';
export {
  checkSourceNames,
  foldSourceName,
  isSourceName,
  MAX_SOURCE_NAME_LENGTH,
  MAX_TOOL_NAME_LENGTH,
  PREFIX_SEPARATOR,
  SOURCE_NAME_RULE,
} from './tool-names.js';
