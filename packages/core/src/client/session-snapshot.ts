import type { ServerCapabilities } from '../protocol/capabilities.js';
import type { Implementation } from '../protocol/implementation.js';

/**
 * A plain, JSON-serialisable picture of a connected session. A Worker that
 * handles one request and exits stores it (KV, a Durable Object) and the next
 * invocation passes it as `resume`, continuing the session without a handshake.
 */
export interface SessionSnapshot {
  readonly protocolVersion: string;
  /** The transport's session id (Streamable HTTP), when the server issued one. */
  readonly sessionId?: string;
  readonly serverInfo: Implementation;
  readonly capabilities: ServerCapabilities;
  readonly instructions?: string;
}
