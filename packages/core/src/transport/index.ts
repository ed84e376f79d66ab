/**
 * The transport contract, published as `@mcp/core/transport`: what a transport
 * author implements (`Transport`) and the pieces one is built from. The same
 * pieces serve any program that speaks JSON-RPC to a peer itself, as the
 * stdio package's bridge does. Apps that only pick a transport need none of
 * it; the main entry has the transports.
 *
 * @module @mcp/core/transport
 */

export { toErrorObject } from '../errors/to-error-object.js';
export { isRequestId, type JsonRpcMessage, type RequestId } from '../protocol/jsonrpc.js';
export { excerpt, jsonExcerpt } from '../util/excerpt.js';
export { isLoopback } from '../util/loopback.js';
export { messageOf } from '../util/message-of.js';
export { type DelayBounds, MAX_TIMER, timerDelay } from '../util/timers.js';
export type { AuthProvider, AuthRequest } from './auth-provider.js';
export { MessageQueue } from './message-queue.js';
export {
  type SendOptions,
  type SessionInfo,
  type Transport,
  type TransportEvent,
  type TransportHooks,
  transportHooks,
} from './transport.js';
