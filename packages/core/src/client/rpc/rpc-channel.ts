import * as v from 'valibot';
import { ClientClosedError } from '../../errors/client-closed-error.js';
import { McpError } from '../../errors/mcp-error.js';
import { ProtocolError } from '../../errors/protocol-error.js';
import { RpcError } from '../../errors/rpc-error.js';
import { toErrorObject } from '../../errors/to-error-object.js';
import { TransportError } from '../../errors/transport-error.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  isRequestId,
  isResultResponse,
  type JsonRpcErrorObject,
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
} from '../../protocol/jsonrpc.js';
import { META_PROGRESS_TOKEN, withMeta } from '../../protocol/meta.js';
import { ProgressNotificationParamsSchema } from '../../protocol/progress.js';
import { MessageQueue } from '../../transport/message-queue.js';
import { type SendOptions, type Transport, type TransportEvent, transportHooks } from '../../transport/transport.js';
import { jsonExcerpt } from '../../util/excerpt.js';
import { LruMap } from '../../util/lru-map.js';
import { messageOf } from '../../util/message-of.js';
import type { CallOptions } from '../options.js';
import { type Deadline, Deadlines, type PendingCall, within } from './pending-calls.js';
import { protocolIssues } from './protocol-issues.js';
import { sendOptionsFor } from './safe-methods.js';

/** What the layer above the channel does with what the server starts. */
export interface ChannelHooks {
  /**
   * Answers a server request; a throw becomes a JSON-RPC error reply, and
   * `undefined` drops the request unanswered (a 2026-07-28 server may send none).
   * `signal` aborts when the server cancels the request or the channel ends.
   */
  readonly onRequest: (request: JsonRpcRequest, signal: AbortSignal) => Promise<Record<string, unknown> | undefined>;
  /**
   * Sees every valid notification, in order, once the channel acted on progress
   * and cancellation. Synchronous: work that may take time is the layer's to bound.
   */
  readonly onNotification: (notification: JsonRpcNotification) => void;
  /** Problems that belong to no call. */
  readonly onError: (error: Error) => void;
  /** Waits for the work the hooks started (handlers) to end, no longer than `graceMs` (on close). */
  readonly drain: (graceMs: number) => Promise<void> | undefined;
}

/** The channel's defaults and bounds, from the client's options. */
export interface ChannelOptions {
  readonly requestTimeout: number;
  /** A call's hard cap when it gives none (ClientOptions.maxTotalTimeout); 0 or Infinity: none. */
  readonly maxTotalTimeout: number;
  /** How long `close()` waits for the read loop and then the handlers, in ms (limits.closeGrace). */
  readonly closeGrace: number;
}

/** A call's bounds, as every request and wait of it passes them to the channel. */
export interface CallBounds extends CallOptions {
  /**
   * When the call began (`performance.now()`): its hard cap (`maxTotalTimeout`)
   * counts from here across every request and wait the call takes — its input
   * rounds (MRTR), a resend after a session renewal — so a server cannot hold one
   * call for a fresh cap per request. Absent: from the request itself.
   */
  readonly startedAt?: number;
  /**
   * Hears the size of each answer to the call's requests, where the transport
   * reported one (`TransportEvent.size`): how a list counts its bytes
   * (`limits.maxListBytes`). Absent, as for most calls: nothing is counted.
   */
  readonly onReceived?: (size: number) => void;
}

/** One request as the channel sends it: the call's bounds, how to read its result, what the transport is told. */
export interface RequestOptions<T> extends CallBounds {
  /** Turns the raw result into the call's value; throws ProtocolError on a wrong shape. */
  readonly parse: (result: unknown) => T;
  /** `initialize` must never be cancelled with a notification (all revisions, lifecycle). */
  readonly cancellable?: boolean;
  readonly headers?: Readonly<Record<string, string>>;
  /** Told the request's id as soon as it has one (a listen stream is routed by it). */
  readonly onRequestId?: (id: RequestId) => void;
}

/** How many given-up ids are remembered (a memory bound: a late answer to an older one goes to `onError`). */
const MAX_GIVEN_UP = 1024;

/** A map key for a request id that keeps `1` and `"1"` apart, as JSON-RPC does. */
const idKey = (id: RequestId): string => (typeof id === 'number' ? `n${id}` : `s${id}`);

/** The TimeoutError of a call that reached its hard cap: it names the cap, whichever part of the call was under way. */
const capTimeout = (method: string, cap: number): DOMException =>
  new DOMException(`${method} exceeded its total timeout of ${cap} ms`, 'TimeoutError');

/**
 * The JSON-RPC core under the Client: ids, pending calls, deadlines (a call's
 * timeout and hard cap, on one timer), progress, cancellation, and the dispatch
 * of what the server starts to the layer above. One read loop consumes the
 * transport; nothing thrown by a message escapes it.
 */
export class RpcChannel {
  readonly #transport: Transport;
  readonly #hooks: ChannelHooks;
  readonly #options: ChannelOptions;
  /**
   * The calls waiting for an answer, by the id we gave them (a positive
   * integer): an object's indexed elements, not a `Map`. Under the constant
   * adds and deletes of calls in flight a `Map` rehashes into a new table every
   * few dozen calls, and V8 links each old table to its successor: once one
   * old table is promoted, it keeps the next (and the calls in it) alive through
   * every young-generation collection until a full one, a chain that grows by a
   * table per rehash. At 64 calls in flight over stdio that promoted about 2 MB
   * per scavenge and cost half again the CPU per call. Elements link nothing.
   */
  #pending: Record<number, PendingCall> = Object.create(null);
  /**
   * Ids of calls that gave up (timeout, abort), so a response arriving after it is
   * dropped quietly instead of reported as stray; the oldest are forgotten first.
   */
  readonly #givenUp = new LruMap<RequestId, true>(MAX_GIVEN_UP);
  readonly #deadlines = new Deadlines();
  /** In-flight server requests by id, so `notifications/cancelled` and close can abort them. */
  readonly #handlers = new Map<string, AbortController>();
  /** Work of calls off the wire (`run`) and notification sends, stopped with the reason when the channel ends. */
  readonly #running = new Set<(reason: unknown) => void>();
  readonly #cancelsByClosing: boolean;
  #nextId = 1;
  #ended: Error | undefined;
  #closing: Promise<void> | undefined;
  #loop: Promise<void> | undefined;

  constructor(transport: Transport, hooks: ChannelHooks, options: ChannelOptions) {
    this.#transport = transport;
    this.#hooks = hooks;
    this.#options = options;
    this.#cancelsByClosing = transportHooks(transport).cancelsByClosing === true;
  }

  /** Starts the read loop. */
  start(): void {
    this.#loop ??= this.#readLoop();
  }

  /** Set once the connection ended or was closed; further calls fail with it. */
  get ended(): Error | undefined {
    return this.#ended;
  }

  /**
   * Sends a request and resolves with its parsed result. Gives up — with a
   * `notifications/cancelled` unless it may not be cancelled — when the caller
   * aborts or a deadline passes; rejects with what the server answered otherwise.
   */
  request<T>(method: string, params: Record<string, unknown> | undefined, options: RequestOptions<T>): Promise<T> {
    const now = performance.now();
    const reason = this.#cannotStart(method, options, now);
    if (reason !== undefined) return Promise.reject(reason);
    const { signal } = options;
    const id = this.#nextId++;
    options.onRequestId?.(id);
    const wire = options.onProgress ? withMeta(params, { [META_PROGRESS_TOKEN]: id }) : params;
    const message: JsonRpcMessage = { jsonrpc: '2.0', id, method, ...(wire && { params: wire }) };

    return new Promise<T>((resolve, reject) => {
      const giveUp = (reason: unknown) => {
        if (!this.#pending[id]) return;
        release();
        ended?.abort(reason);
        // Remember the id either way, so a late answer is dropped quietly.
        this.#givenUp.set(id, true);
        if (options.cancellable !== false) this.#cancel(id, reason);
        reject(reason);
      };
      const [timer, disarm] = this.#arm(method, method, options, giveUp, now);
      // Ends what the transport holds for this call (an HTTP stream) when we give
      // up on it. Only transports that hold something per call get one: creating
      // a signal per request is not free.
      const ended = this.#cancelsByClosing ? new AbortController() : undefined;
      const release = () => {
        disarm();
        delete this.#pending[id];
      };

      this.#pending[id] = {
        method,
        parse: options.parse,
        onProgress: options.onProgress,
        received: options.onReceived,
        timeout: timer,
        resolve: (value) => {
          release();
          resolve(value as T);
        },
        reject: (error) => {
          release();
          reject(error);
        },
        ended,
      };

      const sendOptions = sendOptionsFor(method, ended?.signal ?? signal, options.headers);
      this.#transport.send(message, sendOptions).catch((error: unknown) => {
        const call = this.#call(id);
        if (call) call.reject(this.#ended ? this.#closedError() : error);
      });
    });
  }

  /**
   * Runs work a call does off the wire — the handlers of an input round, the wait
   * for a session renewal — under the bounds its requests have: the caller's
   * signal, the timeout, the hard cap counted from `startedAt`, and the channel's
   * end. `work` gets a signal that aborts with the reason the first of them ends
   * the wait (or `work` fails), and does not start when one already has. A timeout
   * names `label`; the cap names the call's method, as its requests do.
   */
  run<T>(method: string, options: CallBounds, work: (signal: AbortSignal) => Promise<T>, label = method): Promise<T> {
    const now = performance.now();
    const reason = this.#cannotStart(method, options, now);
    if (reason !== undefined) return Promise.reject(reason);
    const controller = new AbortController();
    return new Promise<T>((resolve, reject) => {
      const stop = (reason: unknown) => {
        release();
        controller.abort(reason);
        reject(reason);
      };
      const [, disarm] = this.#arm(method, label, options, stop, now);
      const release = () => {
        disarm();
        this.#running.delete(stop);
      };
      this.#running.add(stop);
      work(controller.signal).then((value) => {
        release();
        resolve(value);
      }, stop);
    });
  }

  /** Why a call's next request or wait must not start: the channel ended, the caller aborted, or the call's cap passed. */
  #cannotStart(
    method: string,
    { signal, startedAt, maxTotalTimeout: cap = this.#options.maxTotalTimeout }: CallBounds,
    now: number,
  ) {
    if (this.#ended) return this.#closedError();
    if (signal?.aborted) return signal.reason;
    if (startedAt !== undefined && cap > 0 && now - startedAt >= cap) return capTimeout(method, cap);
    return undefined;
  }

  /**
   * Arms a call's bounds: its signal, its timeout (progress restarts the
   * deadline returned) and, when it can pass first, its hard cap counted from
   * `startedAt`. `stop` gets the reason the first of them ends the call; the
   * function returned disarms them all.
   */
  #arm(
    method: string,
    label: string,
    options: CallBounds,
    stop: (reason: unknown) => void,
    now: number,
  ): [Deadline | undefined, () => void] {
    const { signal } = options;
    const timeout = options.timeout ?? this.#options.requestTimeout;
    const timer = this.#deadlines.start(
      timeout,
      () => stop(new DOMException(`${label} timed out after ${timeout} ms`, 'TimeoutError')),
      now,
    );
    const cap = options.maxTotalTimeout ?? this.#options.maxTotalTimeout;
    const left = options.startedAt === undefined ? cap : cap - (now - options.startedAt);
    // Only progress restarts `timer`: without `onProgress`, a cap no sooner than
    // the timeout can never pass first, and the common call tracks one deadline.
    const capped = options.onProgress !== undefined || timer === undefined || timer.span > left;
    const hardTimer = capped ? this.#deadlines.start(left, () => stop(capTimeout(method, cap)), now) : undefined;
    const onAbort = () => stop(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    return [
      timer,
      () => {
        this.#deadlines.stop(timer);
        this.#deadlines.stop(hardTimer);
        signal?.removeEventListener('abort', onAbort);
      },
    ];
  }

  /**
   * Sends a notification. Over a transport that holds something per message (HTTP
   * waits for the server's 202) the send is bounded like a call's work (`run`:
   * `timeout`, else `requestTimeout`, the caller's signal, the channel's end): a
   * server that never acknowledges `notifications/initialized` must not hold
   * `connect()` forever, nor outlive `close()`. Past the bound the send rejects
   * with a `TimeoutError`. Other transports hand the message off at once.
   */
  async notify(
    method: string,
    params?: Record<string, unknown>,
    options: SendOptions & { readonly timeout?: number } = {},
  ): Promise<void> {
    if (this.#ended) throw this.#closedError();
    const message: JsonRpcMessage = { jsonrpc: '2.0', method, ...(params && { params }) };
    const { timeout, ...send } = options;
    if (!this.#cancelsByClosing) return this.#transport.send(message, send);
    return this.run(
      method,
      { ...options, maxTotalTimeout: 0 },
      (signal) => this.#transport.send(message, { ...send, signal }),
      `mcp: ${method} (sent, not acknowledged)`,
    );
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
      this.report(error);
    }
    // The loop ends once the transport's stream does, then handlers get what is
    // left of one grace: neither a stuck transport nor a stuck handler holds close().
    const deadline = Date.now() + this.#options.closeGrace;
    if (this.#loop) await within(this.#loop, this.#options.closeGrace);
    await this.#hooks.drain(Math.max(0, deadline - Date.now()));
  }

  /** Marks the channel ended: every pending call and handler learns why. */
  #end(reason: Error): void {
    if (this.#ended) return;
    this.#ended = reason;
    const calls = Object.values(this.#pending);
    this.#pending = Object.create(null);
    this.#deadlines.clear();
    for (const call of calls) {
      call.reject(reason);
      call.ended?.abort(reason);
    }
    for (const controller of this.#handlers.values()) controller.abort(reason);
    this.#handlers.clear();
    for (const stop of [...this.#running]) stop(reason);
  }

  /** The call waiting under `id`; an id of another type (a server answering `"1"` for `1`) finds none. */
  #call(id: unknown): PendingCall | undefined {
    return typeof id === 'number' ? this.#pending[id] : undefined;
  }

  #closedError(): Error {
    const ended = this.#ended;
    if (ended instanceof ClientClosedError) return ended;
    return new ClientClosedError(`mcp: connection ended: ${ended?.message ?? 'closed'}`, { cause: ended });
  }

  #cancel(id: RequestId, reason: unknown): void {
    if (this.#ended) return;
    this.notify('notifications/cancelled', { requestId: id, reason: messageOf(reason) }).catch((error: unknown) =>
      this.#reportLive(error),
    );
  }

  async #readLoop(): Promise<void> {
    try {
      const messages = this.#transport.messages();
      for await (const event of messages) {
        // After an answer, what came with it (at 64 calls in flight one read holds many) is handled now, not one
        // wake-up each. A notification or request ends the run: the app's handlers get their turns between them.
        for (let next: TransportEvent | undefined = event; next; ) {
          this.#onEvent(next);
          next = isAnswer(next) && messages instanceof MessageQueue ? messages.poll() : undefined;
        }
      }
      this.#end(new ClientClosedError('mcp: the server closed the connection'));
    } catch (error) {
      this.#end(error instanceof Error ? error : new TransportError(String(error)));
    }
  }

  #onEvent(event: TransportEvent): void {
    try {
      if (event.type === 'error') {
        const call = this.#call(event.requestId);
        if (call) call.reject(event.error);
        else this.report(event.error);
      } else if (Array.isArray(event.message) && event.message.length > 0) {
        // 2025-03-26 allows batches; each element is an ordinary message. Each
        // answer in one counts the batch's whole size: the size of its part is unknown.
        for (const message of event.message) this.#onMessage(message, event.size);
      } else {
        this.#onMessage(event.message, event.size);
      }
    } catch (error) {
      this.report(error);
    }
  }

  #onMessage(raw: unknown, size: number | undefined): void {
    if (typeof raw !== 'object' || raw === null) {
      this.report(new ProtocolError(`mcp: received a message that is not a JSON-RPC object: ${jsonExcerpt(raw, 80)}`));
    } else if ('method' in raw) {
      if ('id' in raw) this.#onRequest(raw);
      else this.#onNotification(raw);
    } else {
      this.#onResponse(raw, size);
    }
  }

  #onResponse(raw: object, size: number | undefined): void {
    const rawId = 'id' in raw ? raw.id : undefined;
    const id = isRequestId(rawId) ? rawId : undefined;
    const call = this.#call(id);
    if (call && isResultResponse(raw)) {
      this.#settle(call, raw.result, size);
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
      else this.report(error);
      return;
    }
    if (!call) {
      if (id !== undefined && this.#givenUp.delete(id)) return;
      this.report(new ProtocolError(`mcp: response to unknown request id ${JSON.stringify(rawId)}`, { received: raw }));
      return;
    }
    const response = parsed.output;
    if (isError) {
      const { code, message, data } = (response as JsonRpcErrorResponse).error;
      call.reject(new RpcError(code, message, data, call.method));
      return;
    }
    this.#settle(call, (response as JsonRpcResultResponse).result, size);
  }

  /**
   * Ends our own pending request `id` as answered with an empty result, telling
   * the server nothing: how a 2026-07-28 server's `notifications/cancelled`
   * naming a listen request ends it (§ subscriptions/listen). Only the layer
   * that knows the era may call it: a legacy server's cancel names its own ids.
   */
  finish(id: RequestId): void {
    const call = this.#call(id);
    if (call) this.#settle(call, {});
  }

  /**
   * Resolves a call with its parsed result, or rejects it when the result has
   * the wrong shape; first tells the call the answer's size, if it asked.
   */
  #settle(call: PendingCall, result: Record<string, unknown>, size?: number): void {
    try {
      if (size !== undefined) call.received?.(size);
      call.resolve(call.parse(result));
    } catch (error) {
      call.reject(error);
    }
  }

  #onNotification(raw: object): void {
    const parsed = v.safeParse(JsonRpcNotificationSchema, raw);
    if (!parsed.success) {
      this.report(
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
    this.#hooks.onNotification(notification);
  }

  #onProgress(params: unknown): void {
    const parsed = v.safeParse(ProgressNotificationParamsSchema, params);
    if (!parsed.success) return;
    const { progressToken, progress, total, message } = parsed.output;
    // Our tokens are our request ids (numbers): a string token names no call of ours.
    const call = this.#call(progressToken);
    if (!call?.onProgress) return;
    this.#deadlines.restart(call.timeout);
    try {
      call.onProgress({
        progress,
        ...(total !== undefined && { total }),
        ...(message !== undefined && { message }),
      });
    } catch (error) {
      this.report(error);
    }
  }

  #onServerCancel(params: JsonRpcNotification['params']): void {
    const requestId = params?.requestId;
    if (!isRequestId(requestId)) return;
    this.#handlers.get(idKey(requestId))?.abort(new DOMException('cancelled by the server', 'AbortError'));
  }

  #onRequest(raw: object): void {
    const parsed = v.safeParse(JsonRpcRequestSchema, raw);
    if (!parsed.success) {
      const id = 'id' in raw && isRequestId(raw.id) ? raw.id : undefined;
      const error = new ProtocolError(`mcp: invalid request from the server: ${v.summarize(parsed.issues)}`);
      if (id === undefined) this.report(error);
      else this.#reply(id, { error: { code: ErrorCode.InvalidRequest, message: error.message } });
      return;
    }
    const request = parsed.output;
    const key = idKey(request.id);
    const controller = new AbortController();
    this.#handlers.set(key, controller);
    this.#hooks
      .onRequest(request, controller.signal)
      .then(
        (result) => result && { result },
        (error: unknown) => ({ error: toErrorObject(error) }),
      )
      .then((reply) => {
        this.#handlers.delete(key);
        if (reply && !controller.signal.aborted) this.#reply(request.id, reply);
      });
  }

  #reply(id: RequestId, body: { result: Record<string, unknown> } | { error: JsonRpcErrorObject }): void {
    if (this.#ended) return;
    const message = { jsonrpc: '2.0', id, ...body } as JsonRpcMessage;
    this.#transport.send(message).catch((error: unknown) => this.#reportLive(error));
  }

  /** A send that failed because we are closing is no news; anything else is reported. */
  #reportLive(error: unknown): void {
    if (!this.#ended) this.report(error);
  }

  /** Reports a problem that belongs to no call to `onError`; one that throws cannot break the read loop. */
  report(error: unknown): void {
    try {
      this.#hooks.onError(error instanceof Error ? error : new McpError(String(error)));
    } catch {
      // A throwing error callback must not break the read loop.
    }
  }
}

/** Whether an event is an answer to one of our requests (no `method`), which runs no handler of the app's. */
const isAnswer = (event: TransportEvent): boolean =>
  event.type === 'message' && (event.message as { method?: unknown } | null)?.method === undefined;
