import type { JsonRpcMessage, RequestId } from '../protocol/jsonrpc.js';

/** Per-send context a transport may use; transports ignore what they cannot express. */
export interface SendOptions {
  /**
   * Ends whatever the transport holds open for this message (e.g. a POST and its
   * stream) when the call ends: timeout, abort, or the client closing. A transport
   * that holds nothing per message (a socket, a pipe) can ignore it.
   */
  readonly signal?: AbortSignal;
  /** Extra headers for transports that have them (`Mcp-Param-*`, `Mcp-Name`, …). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The request is safe to repeat, so a retry policy may resend it after any network failure. */
  readonly idempotent?: boolean;
}

/**
 * What a transport delivers inbound, one event per message received.
 *
 * - `message`: the decoded JSON value of one message as it arrived (a request,
 *   a notification, a response, or a 2025-03-26 batch array of them), and the
 *   length of its text. Not validated: the Client checks it is JSON-RPC and
 *   reports what is not.
 * - `error`: a problem that ends no connection, such as a frame that is not
 *   JSON. With a `requestId` it fails that one call; without one it goes to
 *   the client's `onError`, and the connection goes on.
 *
 * A connection that dies is no event: `messages()` throws instead.
 */
export type TransportEvent =
  | {
      /** A message arrived. */
      readonly type: 'message';
      /** The decoded JSON value, not yet validated: one message, or a 2025-03-26 batch array of them. */
      readonly message: unknown;
      /**
       * How long the message was as received: the characters (UTF-16 code units)
       * of its JSON text, close to its bytes for JSON, and known to every
       * transport that parses text. A list counts it against
       * `limits.maxListBytes`; a transport that leaves it out is bounded by
       * `limits.maxListItems` alone.
       */
      readonly size?: number;
    }
  | {
      /** Something went wrong that does not end the connection. */
      readonly type: 'error';
      /** What went wrong. */
      readonly error: Error;
      /** The call it belongs to, which then fails with `error`; without it, it goes to `onError`. */
      readonly requestId?: RequestId | undefined;
    };

/** What the Client tells a transport once a session is established (or resumed). */
export interface SessionInfo {
  /** The negotiated revision. */
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
 * a transport must keep. Request/response matching, timeouts, cancellation and
 * validation live in the Client, above every transport. A WebSocket, a worker
 * port or an in-memory pair implements these three members and nothing else
 * (`MessageQueue` is the inbound stream most transports need).
 *
 * The Client calls `messages()` once, when it connects, and reads it until it
 * ends; it calls `send()` for every message it sends, possibly several at once,
 * and `close()` once, when it closes. It never sends after closing.
 */
export interface Transport {
  /**
   * Hands one message off (serialised as JSON, as the peer expects it).
   * Resolves once it is sent (written to the socket, posted to the port); it
   * need not wait for an answer, which comes through `messages()`. Rejects when
   * it could not be sent (the connection is closed or broken): the Client then
   * fails the call the message belongs to with that error.
   */
  send(message: JsonRpcMessage, options?: SendOptions): Promise<void>;
  /**
   * Every inbound event, in arrival order, for the life of the transport.
   * Iterated once, by the Client. It ends (returns) after `close()` or when the
   * server closed the connection cleanly: every pending call then fails with a
   * `ClientClosedError`. It throws when the connection died (a `TransportError`
   * naming the cause, chained as its `cause`): every pending call fails with
   * that error.
   */
  messages(): AsyncIterable<TransportEvent>;
  /**
   * Releases everything the transport holds (sockets, streams, timers) and ends
   * `messages()`. Idempotent; later `send()`s reject. Resolves once done; it
   * should not wait on the server for long.
   */
  close(): Promise<void>;
}

/**
 * The optional extension a transport with sessions, per-request streams or
 * credentials implements besides `Transport` (Streamable HTTP implements them
 * all; stdio only `serverKey`, so a command's era verdict outlives the process;
 * `MemoryTransport` and a plain socket need none). Every member is optional:
 * the Client asks for each one through `transportHooks()` and does without what
 * is missing.
 */
export interface TransportHooks {
  /**
   * Called once the handshake finished (legacy era), or the era was settled
   * (modern), or a session was resumed from a snapshot; again after a session
   * is renewed. HTTP sends the version header from then on and opens its GET stream.
   */
  sessionStarted?(info: SessionInfo): void;
  /**
   * Called when the client comes to want messages the server starts on its own
   * (e.g. `listen()` in the legacy era after a session began without them):
   * open the GET stream if the session has none. Idempotent; a no-op where
   * there is no such stream.
   */
  openServerStream?(): void;
  /** The server-assigned session id, read for `client.session` snapshots; transports without sessions leave it out. */
  readonly sessionId?: string | undefined;
  /**
   * Aborting a send's `signal` closes what carries the request, and that is how
   * the server learns of the cancellation (HTTP): the Client then sends no
   * `notifications/cancelled` in the modern era, and bounds notification sends
   * like requests (HTTP waits for the server's 202).
   */
  readonly cancelsByClosing?: boolean;
  /**
   * Names the server, for caching which era it speaks across transports (the
   * HTTP endpoint, a command line). Absent: the verdict is kept per transport object.
   */
  readonly serverKey?: string;
  /**
   * Names the credentials a request would carry now (never the token itself),
   * asked before a cached result is used, so `private` cache entries never
   * cross credentials. Absent: no credentials, one key for all.
   */
  credentialKey?(): Promise<string | undefined>;
}

/** The `TransportHooks` a transport implements (none, some or all of them). */
export function transportHooks(transport: Transport): TransportHooks {
  return transport as Transport & TransportHooks;
}
