/**
 * The transport contract, published as `@mcp/core/transport`: what a transport
 * author implements (`Transport`) and the pieces one is built from. Apps that
 * only pick a transport need none of it; the main entry has the transports.
 *
 * @module @mcp/core/transport
 */

export type { JsonRpcMessage, RequestId } from '../protocol/jsonrpc.js';
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
