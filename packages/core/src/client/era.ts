import type { ClientCapabilities, ServerCapabilities } from '../protocol/capabilities.js';
import type { Implementation } from '../protocol/implementation.js';
import type { JsonRpcRequest } from '../protocol/jsonrpc.js';
import type { LoggingLevel } from '../protocol/logging.js';
import type { Tool } from '../protocol/tools.js';
import type { Listeners } from './answering/listeners.js';
import type { ListenFilter, Subscription } from './answering/subscription.js';
import type { CallOptions, EraKind } from './options.js';
import type { RequestOptions, RpcChannel } from './rpc-channel.js';

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
 * One protocol era, as a strategy inside the Client: how it connects and how a
 * request travels. The legacy era shakes hands once per connection; the modern
 * era (2026-07-28) envelopes every request instead. The Client's public methods
 * never branch on the era: they delegate to the Session, which asks the era or,
 * where the eras differ in what a method means (`ping`, `setLoggingLevel`,
 * `listen`), chooses for it.
 */
export interface Era {
  readonly kind: EraKind;
  /** The request `ping()` sends: one every server of the era must answer, whatever it declared. */
  readonly pingMethod: string;
  connect(context: ConnectContext): Promise<ServerIdentity>;
  request<T>(
    channel: RpcChannel,
    method: string,
    params: Record<string, unknown> | undefined,
    options: EraRequestOptions<T>,
  ): Promise<T>;
  /**
   * The tools of a `tools/list` that `callTool` may call. An era whose requests
   * depend on a tool's schema checks each one here, remembers what its calls
   * need, and leaves out (with `onWarning`) those it could not call right.
   */
  /**
   * A request of this era that failed with `error`: the era's way to carry it
   * out all the same, or `undefined` to let the error stand (the Session then
   * renews an expired session). `send` sends the request again as it was;
   * whatever the era does runs under the call's bounds (`options`).
   */
  recover<T>(
    error: unknown,
    method: string,
    options: EraRequestOptions<T>,
    send: () => Promise<T>,
  ): Promise<T> | undefined;
  acceptTools(tools: Tool[]): Promise<Tool[]>;
  /**
   * The level of log messages the server should send, once the Session found
   * the server declared `logging`: a request that sets it, or the level
   * carried by every later request.
   */
  setLoggingLevel(level: LoggingLevel, options: CallOptions | undefined): Promise<void>;
  /**
   * Subscribes to one resource's updates (`subscribeResource`) and remembers it
   * for `renewed`. An era without resource subscriptions refuses, before
   * anything is sent, with an `McpError` that says what to use instead.
   */
  subscribe(uri: string, options: CallOptions | undefined): Promise<void>;
  /** Ends what `subscribe` started (`unsubscribeResource`); refused like `subscribe`. */
  unsubscribe(uri: string, options: CallOptions | undefined): Promise<void>;
  /**
   * Restores, within the renewal's `signal`, what the era keeps of a session
   * after the Session renewed it with a new `connect`: the resources it was
   * subscribed to, say.
   */
  renewed(signal: AbortSignal): Promise<void>;
  /**
   * Change notifications as a subscription (`listen()`), opened in `listeners`
   * once the Session loaded them and found the client connected: however the
   * era has the server send them.
   */
  listen(filter: ListenFilter, listeners: Listeners): Promise<Subscription>;
  /**
   * Tells the server the client's roots changed (`notifyRootsChanged()`), once
   * the Session found the client connected; an era whose requests carry the
   * roots where the server asks for them has nothing to send.
   */
  notifyRootsChanged(): Promise<void>;
  /**
   * Answers a request the server started (the channel hands over each one) with
   * the result to send back. Where the era forbids servers to send requests it
   * reports the request to `onError` instead and settles with `undefined`,
   * which sends no reply.
   */
  serverRequest(request: JsonRpcRequest, signal: AbortSignal): Promise<Record<string, unknown> | undefined>;
}
