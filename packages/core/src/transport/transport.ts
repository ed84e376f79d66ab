import type { JsonRpcMessage, RequestId } from '../protocol/jsonrpc.js';

/** Per-send context a transport may use; transports ignore what they cannot express. */
export interface SendOptions {
  /** Aborting it ends whatever the transport holds open for this message (e.g. a POST's stream). */
  readonly signal?: AbortSignal;
  /** Extra headers for transports that have them (`Mcp-Param-*`, `Mcp-Name`, …). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The request is safe to repeat, so a retry policy may resend it after any network failure. */
  readonly idempotent?: boolean;
}

/**
 * What a transport delivers inbound: a decoded JSON value (the Client validates it
 * as JSON-RPC), or a non-fatal problem. An error with a `requestId` fails that one
 * call; without one it is reported and the connection goes on.
 */
export type TransportEvent =
  | { readonly type: 'message'; readonly message: unknown }
  | { readonly type: 'error'; readonly error: Error; readonly requestId?: RequestId | undefined };

/** What the Client tells a transport once a session is established (or resumed). */
export interface SessionInfo {
  readonly protocolVersion: string;
  /** Legacy sessions have a GET stream and server requests; modern (2026-07-28) ones have neither. */
  readonly era: 'legacy' | 'modern';
  /** Set when resuming a session from a snapshot. */
  readonly sessionId?: string;
  /**
   * Whether the client does anything with messages the server starts on its own
   * (handlers, `onNotification`, a `listen()` subscription). `false` lets an HTTP
   * transport skip the optional standalone GET stream (2025-03-26 on: a MAY).
   * Absent means true.
   */
  readonly serverMessages?: boolean;
}

/**
 * Moves JSON-RPC messages between the Client and one server: the whole contract
 * a transport must keep. Request/response matching, timeouts and cancellation
 * live in the Client, above every transport. A WebSocket, a worker port or an
 * in-memory pair implements these three members and nothing else.
 */
export interface Transport {
  /** Hands one message off; resolves once it is sent, rejects if it could not be. */
  send(message: JsonRpcMessage, options?: SendOptions): Promise<void>;
  /**
   * Every inbound event, for the life of the transport. Iterated once, by the Client.
   * It ends when the transport closes; it throws when the connection dies (a
   * `TransportError` naming the cause), which fails every pending call.
   */
  messages(): AsyncIterable<TransportEvent>;
  /** Releases everything the transport holds. Idempotent. */
  close(): Promise<void>;
}

/**
 * The optional extension a transport with sessions, per-request streams or
 * credentials implements besides `Transport` (Streamable HTTP does; stdio
 * implements `sessionStarted` only). Every member is optional: the Client asks
 * for each one through `transportHooks()` and does without what is missing.
 */
export interface TransportHooks {
  /** The handshake finished (or a session was resumed): HTTP sends version headers and opens its GET stream. */
  sessionStarted?(info: SessionInfo): void;
  /**
   * The client now wants messages the server starts on its own (e.g. `listen()` in
   * the legacy era after a session began without them): open the GET stream if
   * the session has none. Idempotent; a no-op where there is no such stream.
   */
  openServerStream?(): void;
  /** The server-assigned session id, for transports that have sessions. */
  readonly sessionId?: string | undefined;
  /** Closing a request's stream cancels it (HTTP); in the modern era no `notifications/cancelled` is sent then. */
  readonly cancelsByClosing?: boolean;
  /** Identifies the server for caching the era verdict (the HTTP endpoint); absent means per transport. */
  readonly serverKey?: string;
  /** Names the credentials a request would carry now, so `private` cache entries never cross them. */
  credentialKey?(): Promise<string | undefined>;
}

/** The `TransportHooks` a transport implements (none, some or all of them). */
export function transportHooks(transport: Transport): TransportHooks {
  return transport as Transport & TransportHooks;
}
