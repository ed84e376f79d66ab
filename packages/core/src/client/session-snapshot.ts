import type { ServerCapabilities } from '../protocol/capabilities.js';
import type { Implementation } from '../protocol/implementation.js';

/**
 * A plain, JSON-serialisable picture of a connected session. A Worker that
 * handles one request and exits stores it (KV, a Durable Object) and the next
 * invocation passes it as `resume`, continuing the session without a handshake.
 */
export interface SessionSnapshot {
  /** The negotiated revision, sent as `MCP-Protocol-Version`. */
  readonly protocolVersion: string;
  /** The transport's session id (Streamable HTTP), when the server issued one. */
  readonly sessionId?: string;
  /** The server's identity, as it announced itself. */
  readonly serverInfo: Implementation;
  /** What the server declared: the resumed client checks calls against it without asking again. */
  readonly capabilities: ServerCapabilities;
  /** The server's instructions, when it gave some. */
  readonly instructions?: string;
}
