import type { ClientCapabilities, ServerCapabilities } from '../../protocol/capabilities.js';
import type { Implementation } from '../../protocol/implementation.js';
import type { JsonRpcRequest } from '../../protocol/jsonrpc.js';
import type { LoggingLevel } from '../../protocol/logging.js';
import type { Tool } from '../../protocol/tools.js';
import type { Listeners } from '../listen/listeners.js';
import type { ListenFilter, Subscription } from '../listen/subscription.js';
import type { CallOptions, EraKind } from '../options.js';
import type { RequestOptions, RpcChannel } from '../rpc/rpc-channel.js';

/** What the client learns about the server when it connects. */
export interface ServerIdentity {
  readonly protocolVersion: string;
  readonly serverInfo: Implementation;
  readonly capabilities: ServerCapabilities;
  readonly instructions?: string;
}

/** What an era needs from the client to connect. */
export interface ConnectContext {
  readonly channel: RpcChannel;
  readonly clientInfo: Implementation;
  readonly capabilities: ClientCapabilities;
  /** A pinned version; without it the era negotiates. */
  readonly protocolVersion: string | undefined;
  readonly call: CallOptions;
}

/** A request as an era gets it: the channel's options, and a word when the server asks for input. */
export interface EraRequestOptions<T> extends RequestOptions<T> {
  /** The era is about to resend the request with answers to the server's input requests (MRTR). */
  readonly onInputRound?: () => void;
}

/**
 * One protocol era, as a strategy inside the Session: everything the client
 * does differently for the servers of one era. The legacy era shakes hands once
 * per connection; the modern era (2026-07-28) envelopes every request instead.
 * The Session chooses the era, checks what the server declared, keeps the cache
 * and renews an expired session; every difference between eras is one of the
 * members below, so neither the Client nor the Session branches on the era.
 *
 * A later protocol revision is one class implementing this interface, built
 * from the Session's `EraHost` (`era-host.ts`), plus the rule in
 * `era-detection.ts` that says when to choose it.
 */
export interface Era {
  /**
   * Which era this is: what `client.era` reports, what the era cache remembers
   * of a server, and what the transport is told when a session starts.
   */
  readonly kind: EraKind;
  /**
   * Opens the session, or learns the server where the era has none, and says
   * what the server is. Era detection calls it once, perhaps as a probe under
   * a short timeout; each session renewal calls it again. A server that speaks
   * no version this client does is an `UnsupportedVersionError`.
   */
  connect(context: ConnectContext): Promise<ServerIdentity>;
  /**
   * Sends one request and returns its parsed result, after any exchange the
   * era lets the server ask for before answering (input rounds), all under
   * `options`' bounds. Every call takes this path, so it should cost no more
   * than what the era puts on the wire.
   */
  request<T>(
    channel: RpcChannel,
    method: string,
    params: Record<string, unknown> | undefined,
    options: EraRequestOptions<T>,
  ): Promise<T>;
  /**
   * A request of this era that failed with `error`: the era's way to carry it
   * out all the same, or `undefined` to let the error stand (the Session then
   * renews an expired session). `send` sends the request again as it was, and
   * whatever the era does runs under the call's bounds (`options`).
   */
  recover<T>(
    error: unknown,
    method: string,
    options: EraRequestOptions<T>,
    send: () => Promise<T>,
  ): Promise<T> | undefined;
  /** The request `ping()` sends: one every server of the era must answer, whatever it declared. */
  readonly pingMethod: string;
  /**
   * The tools of a `tools/list` that `callTool` may call. An era whose requests
   * depend on a tool's schema checks each tool here and remembers what its
   * calls need. It leaves out the tools it could not call right, each with an
   * `onWarning`.
   */
  acceptTools(tools: Tool[]): Promise<Tool[]>;
  /**
   * Sets the level of log messages the server sends, after the Session found
   * that the server declared `logging`. An era sends a request for it, or
   * carries the level on every later request.
   */
  setLoggingLevel(level: LoggingLevel, options: CallOptions | undefined): Promise<void>;
  /**
   * Subscribes to one resource's updates (`subscribeResource`) and remembers
   * it for `renewed`. An era without resource subscriptions refuses before
   * anything is sent, with an `McpError` that says what to use instead.
   */
  subscribe(uri: string, options: CallOptions | undefined): Promise<void>;
  /** Ends what `subscribe` started (`unsubscribeResource`); refused like `subscribe`. */
  unsubscribe(uri: string, options: CallOptions | undefined): Promise<void>;
  /**
   * Restores what the era keeps of a session, after the Session renewed it
   * with a new `connect`: the resources it was subscribed to, for one. It runs
   * within the renewal's `signal`.
   */
  renewed(signal: AbortSignal): Promise<void>;
  /**
   * Opens change notifications as a subscription (`listen()`) in `listeners`,
   * once the Session loaded them and found the client connected, by whatever
   * means the era has the server send them.
   */
  listen(filter: ListenFilter, listeners: Listeners): Promise<Subscription>;
  /**
   * Tells the server the client's roots changed (`notifyRootsChanged()`), once
   * the Session found the client connected. An era whose requests carry the
   * roots where the server asks for them has nothing to send.
   */
  notifyRootsChanged(): Promise<void>;
  /**
   * Answers a request the server started (the channel hands over each one)
   * with the result to send back. An era that forbids servers to send requests
   * reports the request to `onError` instead and settles with `undefined`,
   * which sends no reply.
   */
  serverRequest(request: JsonRpcRequest, signal: AbortSignal): Promise<Record<string, unknown> | undefined>;
}
