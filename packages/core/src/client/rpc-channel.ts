import * as v from 'valibot';
import { ClientClosedError } from '../errors/client-closed-error.js';
import { McpError } from '../errors/mcp-error.js';
import { ProtocolError } from '../errors/protocol-error.js';
import { RpcError } from '../errors/rpc-error.js';
import { TransportError } from '../errors/transport-error.js';
import { ErrorCode } from '../protocol/error-codes.js';
import { protocolIssues } from '../protocol/issues.js';
import {
  isRequestId,
  isResultResponse,
  type JsonRpcErrorResponse,
  JsonRpcErrorResponseSchema,
  type JsonRpcMessage,
  type JsonRpcNotification,
  JsonRpcNotificationSchema,
  type JsonRpcRequest,
  JsonRpcRequestSchema,
  type JsonRpcResultResponse,
  JsonRpcResultResponseSchema,
  type RequestId,
} from '../protocol/jsonrpc.js';
import { ProgressNotificationParamsSchema } from '../protocol/progress.js';
import { type SendOptions, type Transport, type TransportEvent, transportHooks } from '../transport/transport.js';
import { type DispatchPool, within } from './dispatch-pool.js';
import type { CallOptions } from './options.js';
import { Deadlines, type PendingCall, RecentIds } from './pending-calls.js';
import { type ErrorObject, excerpt, idKey, sendOptionsFor, toErrorObject, withProgressToken } from './rpc-messages.js';

/** What the layer above the channel does with the work the server starts. */
export interface ChannelHooks {
  /** Answers a server request; a throw becomes a JSON-RPC error reply. */
  readonly onRequest: (request: JsonRpcRequest, signal: AbortSignal) => Promise<Record<string, unknown>>;
  /**
   * Sees every valid notification at once, outside the dispatch pool: the
   * client's own bookkeeping (cache, subscriptions), synchronous and cheap, so
   * a slow `onNotification` holding every slot cannot make it miss one.
   */
  readonly noticed: (notification: JsonRpcNotification) => void;
  /** Runs inside the dispatch pool and holds its slot until the promise it returns settles. */
  readonly onNotification: (notification: JsonRpcNotification) => void | Promise<void>;
  /** Problems that belong to no call. */
  readonly onError: (error: Error) => void;
}

export interface ChannelOptions {
  readonly requestTimeout: number;
  /** A call's hard cap when it gives none (ClientOptions.maxTotalTimeout); 0 or Infinity: none. */
  readonly maxTotalTimeout: number;
  /** Slots for server requests and notifications (limits.maxConcurrentHandlers), shared with MRTR's handlers. */
  readonly pool: DispatchPool;
  readonly closeGrace: number;
}

export interface RequestOptions<T> extends CallOptions {
  /** Turns the raw result into the call's value; throws ProtocolError on a wrong shape. */
  readonly parse: (result: unknown) => T;
  /** `initialize` must never be cancelled with a notification (all revisions, lifecycle). */
  readonly cancellable?: boolean;
  readonly headers?: Readonly<Record<string, string>>;
  /** Told the request's id as soon as it has one (a listen stream is routed by it). */
  readonly onRequestId?: (id: RequestId) => void;
  /** The era is about to resend the request with answers to the server's input requests (MRTR). */
  readonly onInputRound?: () => void;
}

/**
 * The JSON-RPC core under the Client: ids, pending calls, timeouts, progress,
 * cancellation and the bounded dispatch of server requests and notifications.
 * One read loop consumes the transport; nothing thrown by a message escapes it.
 */
export class RpcChannel {
  readonly #transport: Transport;
  readonly #hooks: ChannelHooks;
  readonly #options: ChannelOptions;
  readonly #pool: DispatchPool;
  readonly #pending = new Map<RequestId, PendingCall>();
  readonly #cancelled = new RecentIds();
  readonly #deadlines = new Deadlines();
  /** In-flight server requests by id, so `notifications/cancelled` and close can abort them. */
  readonly #handlers = new Map<string, AbortController>();
  /** Notification sends still waiting for the transport (HTTP: the 202); aborted when the channel ends. */
  readonly #notifying = new Set<AbortController>();
  readonly #signalsSends: boolean;
  #nextId = 1;
  #ended: Error | undefined;
  #closing: Promise<void> | undefined;
  #loop: Promise<void> | undefined;

  constructor(transport: Transport, hooks: ChannelHooks, options: ChannelOptions) {
    this.#transport = transport;
    this.#hooks = hooks;
    this.#options = options;
    this.#pool = options.pool;
    this.#signalsSends = transportHooks(transport).cancelsByClosing === true;
  }

  /** Starts the read loop. */
  start(): void {
    this.#loop ??= this.#readLoop();
  }

  /** Set once the connection ended or was closed; further calls fail with it. */
  get ended(): Error | undefined {
    return this.#ended;
  }

  request<T>(method: string, params: Record<string, unknown> | undefined, options: RequestOptions<T>): Promise<T> {
    if (this.#ended) return Promise.reject(this.#closedError());
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);

    const id = this.#nextId++;
    options.onRequestId?.(id);
    const wire = options.onProgress ? withProgressToken(params, id) : params;
    const message: JsonRpcMessage = { jsonrpc: '2.0', id, method, ...(wire && { params: wire }) };

    return new Promise<T>((resolve, reject) => {
      const giveUp = (reason: unknown) => {
        if (!this.#pending.has(id)) return;
        release();
        ended?.abort(reason);
        // Remember the id either way, so a late answer is dropped quietly.
        this.#cancelled.add(id);
        if (options.cancellable !== false) this.#cancel(id, reason);
        reject(reason);
      };
      const timeoutMs = options.timeout ?? this.#options.requestTimeout;
      const timer = this.#deadlines.start(timeoutMs, () =>
        giveUp(new DOMException(`${method} timed out after ${timeoutMs} ms`, 'TimeoutError')),
      );
      const maxTotal = options.maxTotalTimeout ?? this.#options.maxTotalTimeout;
      // Only progress restarts `timer`: without `onProgress`, a cap no shorter than
      // the timeout can never fire first, and the common call tracks one deadline.
      const capped = options.onProgress !== undefined || timer === undefined || timer.span > maxTotal;
      const hardTimer = capped
        ? this.#deadlines.start(maxTotal, () =>
            giveUp(new DOMException(`${method} exceeded its total timeout of ${maxTotal} ms`, 'TimeoutError')),
          )
        : undefined;
      const onAbort = () => giveUp(signal?.reason);
      // Ends what the transport holds for this call (an HTTP stream) when we give
      // up on it. Only transports that hold something per call get one: creating
      // a signal per request is not free.
      const ended = this.#signalsSends ? new AbortController() : undefined;
      const release = () => {
        this.#deadlines.stop(timer);
        this.#deadlines.stop(hardTimer);
        signal?.removeEventListener('abort', onAbort);
        this.#pending.delete(id);
      };

      this.#pending.set(id, {
        method,
        parse: options.parse,
        onProgress: options.onProgress,
        restartTimeout: () => this.#deadlines.restart(timer),
        resolve: (value) => {
          release();
          resolve(value as T);
        },
        reject: (error) => {
          release();
          reject(error);
        },
        abandon: (reason) => ended?.abort(reason),
      });
      signal?.addEventListener('abort', onAbort, { once: true });

      const sendOptions = sendOptionsFor(method, ended?.signal ?? signal, options.headers);
      this.#transport.send(message, sendOptions).catch((error: unknown) => {
        const call = this.#pending.get(id);
        if (call) call.reject(this.#ended ? this.#closedError() : error);
      });
    });
  }

  /**
   * Sends a notification. Over a transport that holds something per message (HTTP
   * waits for the server's 202) the send is bounded like a request (`timeout`, else
   * `requestTimeout`, on the shared deadline timer), follows the caller's signal and
   * ends with the channel: a server that never acknowledges `notifications/initialized`
   * must not hold `connect()` forever, nor outlive `close()`. Past the bound the send
   * rejects with a `TimeoutError`. Other transports hand the message off at once.
   */
  async notify(
    method: string,
    params?: Record<string, unknown>,
    options: SendOptions & { readonly timeout?: number } = {},
  ): Promise<void> {
    if (this.#ended) throw this.#closedError();
    const message: JsonRpcMessage = { jsonrpc: '2.0', method, ...(params && { params }) };
    const { timeout = this.#options.requestTimeout, ...send } = options;
    if (!this.#signalsSends) return this.#transport.send(message, send);
    const bound = new AbortController();
    const deadline = this.#deadlines.start(timeout, () =>
      bound.abort(new DOMException(`mcp: ${method} not accepted within ${timeout} ms`, 'TimeoutError')),
    );
    const onAbort = () => bound.abort(send.signal?.reason);
    if (send.signal?.aborted) onAbort();
    else send.signal?.addEventListener('abort', onAbort, { once: true });
    this.#notifying.add(bound);
    try {
      await this.#transport.send(message, { ...send, signal: bound.signal });
    } finally {
      this.#deadlines.stop(deadline);
      this.#notifying.delete(bound);
      send.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Stops reading, fails pending calls, aborts handlers, closes the transport. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    this.#end(new ClientClosedError());
    try {
      await this.#transport.close();
    } catch (error) {
      this.#report(error);
    }
    // The loop ends once the transport's stream does, then handlers get what is
    // left of one grace: neither a stuck transport nor a stuck handler holds close().
    const deadline = Date.now() + this.#options.closeGrace;
    if (this.#loop) await within(this.#loop, this.#options.closeGrace);
    await this.#pool.drain(Math.max(0, deadline - Date.now()));
  }

  /** Marks the channel ended: every pending call and handler learns why. */
  #end(reason: Error): void {
    if (this.#ended) return;
    this.#ended = reason;
    const calls = [...this.#pending.values()];
    this.#pending.clear();
    this.#deadlines.clear();
    for (const call of calls) {
      call.reject(reason);
      call.abandon(reason);
    }
    for (const controller of this.#handlers.values()) controller.abort(reason);
    this.#handlers.clear();
    for (const controller of this.#notifying) controller.abort(this.#closedError());
    this.#notifying.clear();
    this.#pool.end(reason);
  }

  #closedError(): Error {
    const ended = this.#ended;
    if (ended instanceof ClientClosedError) return ended;
    return new ClientClosedError(`mcp: connection ended: ${ended?.message ?? 'closed'}`, { cause: ended });
  }

  #cancel(id: RequestId, reason: unknown): void {
    if (this.#ended) return;
    const text = reason instanceof Error ? reason.message : String(reason);
    this.notify('notifications/cancelled', { requestId: id, reason: text }).catch((error: unknown) =>
      this.#reportLive(error),
    );
  }

  async #readLoop(): Promise<void> {
    try {
      for await (const event of this.#transport.messages()) this.#onEvent(event);
      this.#end(new ClientClosedError('mcp: the server closed the connection'));
    } catch (error) {
      this.#end(error instanceof Error ? error : new TransportError(String(error)));
    }
  }

  #onEvent(event: TransportEvent): void {
    try {
      if (event.type === 'error') {
        const call = event.requestId === undefined ? undefined : this.#pending.get(event.requestId);
        if (call) call.reject(event.error);
        else this.#report(event.error);
      } else if (Array.isArray(event.message) && event.message.length > 0) {
        // 2025-03-26 allows batches; each element is an ordinary message.
        for (const message of event.message) this.#onMessage(message);
      } else {
        this.#onMessage(event.message);
      }
    } catch (error) {
      this.#report(error);
    }
  }

  #onMessage(raw: unknown): void {
    if (typeof raw !== 'object' || raw === null) {
      this.#report(new ProtocolError(`mcp: received a message that is not a JSON-RPC object: ${excerpt(raw)}`));
    } else if ('method' in raw) {
      if ('id' in raw) this.#onRequest(raw);
      else this.#onNotification(raw);
    } else {
      this.#onResponse(raw);
    }
  }

  #onResponse(raw: object): void {
    const rawId = 'id' in raw ? raw.id : undefined;
    const id = isRequestId(rawId) ? rawId : undefined;
    const call = id === undefined ? undefined : this.#pending.get(id);
    if (call && isResultResponse(raw)) {
      this.#settle(call, raw.result);
      return;
    }
    const isError = 'error' in raw;
    const parsed = isError
      ? v.safeParse(JsonRpcErrorResponseSchema, raw)
      : v.safeParse(JsonRpcResultResponseSchema, raw);
    if (!parsed.success) {
      const error = new ProtocolError(
        `mcp: ${call ? `${call.method}: ` : ''}invalid JSON-RPC response: ${v.summarize(parsed.issues)}`,
        { issues: protocolIssues(parsed.issues), received: raw },
      );
      if (call) call.reject(error);
      else this.#report(error);
      return;
    }
    if (!call) {
      if (id !== undefined && this.#cancelled.take(id)) return;
      this.#report(
        new ProtocolError(`mcp: response to unknown request id ${JSON.stringify(rawId)}`, { received: raw }),
      );
      return;
    }
    const response = parsed.output;
    if (isError) {
      const { code, message, data } = (response as JsonRpcErrorResponse).error;
      call.reject(new RpcError(code, message, data, call.method));
      return;
    }
    this.#settle(call, (response as JsonRpcResultResponse).result);
  }

  /** Resolves a call with its parsed result, or rejects it when the result has the wrong shape. */
  #settle(call: PendingCall, result: Record<string, unknown>): void {
    try {
      call.resolve(call.parse(result));
    } catch (error) {
      call.reject(error);
    }
  }

  #onNotification(raw: object): void {
    const parsed = v.safeParse(JsonRpcNotificationSchema, raw);
    if (!parsed.success) {
      this.#report(
        new ProtocolError(`mcp: invalid notification: ${v.summarize(parsed.issues)}`, {
          issues: protocolIssues(parsed.issues),
          received: raw,
        }),
      );
      return;
    }
    const notification = parsed.output;
    const { method } = notification;
    if (method === 'notifications/progress') this.#onProgress(notification.params);
    if (method === 'notifications/cancelled') this.#onServerCancel(notification.params);
    this.#hooks.noticed(notification);
    const started = this.#pool.tryRun(async () => {
      try {
        await this.#hooks.onNotification(notification);
      } catch (error) {
        this.#report(error);
      }
    });
    // Progress and cancellation were already acted on above; only the user's copy is lost.
    if (!started && method !== 'notifications/progress' && method !== 'notifications/cancelled') {
      this.#report(new McpError(`mcp: dropped ${method}: every dispatch slot is busy`));
    }
  }

  #onProgress(params: unknown): void {
    const parsed = v.safeParse(ProgressNotificationParamsSchema, params);
    if (!parsed.success) return;
    const { progressToken, progress, total, message } = parsed.output;
    const call = typeof progressToken === 'number' ? this.#pending.get(progressToken) : undefined;
    if (!call?.onProgress) return;
    call.restartTimeout();
    try {
      call.onProgress({
        progress,
        ...(total !== undefined && { total }),
        ...(message !== undefined && { message }),
      });
    } catch (error) {
      this.#report(error);
    }
  }

  #onServerCancel(params: unknown): void {
    const requestId =
      typeof params === 'object' && params !== null && 'requestId' in params ? params.requestId : undefined;
    if (!isRequestId(requestId)) return;
    this.#handlers.get(idKey(requestId))?.abort(new DOMException('cancelled by the server', 'AbortError'));
  }

  #onRequest(raw: object): void {
    const parsed = v.safeParse(JsonRpcRequestSchema, raw);
    if (!parsed.success) {
      const id = 'id' in raw && isRequestId(raw.id) ? raw.id : undefined;
      const error = new ProtocolError(`mcp: invalid request from the server: ${v.summarize(parsed.issues)}`);
      if (id === undefined) this.#report(error);
      else this.#reply(id, { error: { code: ErrorCode.InvalidRequest, message: error.message } });
      return;
    }
    const request = parsed.output;
    const key = idKey(request.id);
    const controller = new AbortController();
    const started = this.#pool.tryRun(async () => {
      this.#handlers.set(key, controller);
      try {
        const result = await this.#hooks.onRequest(request, controller.signal);
        if (!controller.signal.aborted) this.#reply(request.id, { result });
      } catch (error) {
        if (!controller.signal.aborted) this.#reply(request.id, { error: toErrorObject(error) });
      } finally {
        this.#handlers.delete(key);
      }
    });
    if (!started) {
      this.#reply(request.id, {
        error: { code: ErrorCode.InternalError, message: 'client busy: too many concurrent server requests' },
      });
    }
  }

  #reply(id: RequestId, body: { result: Record<string, unknown> } | { error: ErrorObject }): void {
    if (this.#ended) return;
    const message = { jsonrpc: '2.0', id, ...body } as JsonRpcMessage;
    this.#transport.send(message).catch((error: unknown) => this.#reportLive(error));
  }

  /** A send that failed because we are closing is no news; anything else is reported. */
  #reportLive(error: unknown): void {
    if (!this.#ended) this.#report(error);
  }

  #report(error: unknown): void {
    try {
      this.#hooks.onError(error instanceof Error ? error : new McpError(String(error)));
    } catch {
      // A throwing error callback must not break the read loop.
    }
  }
}
