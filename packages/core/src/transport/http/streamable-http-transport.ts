import { ClientClosedError } from '../../errors/client-closed-error.js';
import { ProtocolError } from '../../errors/protocol-error.js';
import { SessionExpiredError } from '../../errors/session-expired-error.js';
import { TransportError } from '../../errors/transport-error.js';
import type { JsonRpcMessage, RequestId } from '../../protocol/jsonrpc.js';
import { setAll } from '../../util/headers.js';
import { linkedSignal } from '../../util/linked-signal.js';
import { contentType, discard } from '../../util/read-body.js';
import { MessageQueue } from '../message-queue.js';
import type { SendOptions, SessionInfo, Transport, TransportEvent, TransportHooks } from '../transport.js';
import { readErrorResponse } from './error-response.js';
import type { EventStreamTarget } from './event-stream/index.js';
import { HttpRequester } from './http-requester.js';
import { jsonAnswer } from './json-answer.js';
import type { LegacySseSession } from './legacy-sse-session.js';
import { legacySse, recovery } from './on-demand.js';
import { DEFAULT_CLOSE_TIMEOUT, DEFAULT_MAX_MESSAGE_BYTES, type StreamableHttpTransportOptions } from './options.js';
import { readPostStream } from './post-stream.js';

/** What a send carries once it has the signal that ends it. */
type SignalledSend = SendOptions & { readonly signal: AbortSignal };

/** How one message's exchange ended: done, or its response stream still read in the background. */
type Exchange = Promise<{ reading: Promise<void> } | void>;

const CLOSED = 'StreamableHttpTransport: closed';
const SESSION_HEADER = 'mcp-session-id';
const VERSION_HEADER = 'mcp-protocol-version';
const SSE = 'text/event-stream';
const JSON_TYPE = 'application/json';
const JSON_OR_SSE = `${JSON_TYPE}, ${SSE}`;
/** Statuses refusing `initialize` that may mean an HTTP+SSE server (2025-03-26, "Backwards Compatibility"). */
const FALLBACK_STATUSES = [400, 404, 405];

/**
 * The Streamable HTTP client transport (2025-03-26 … 2025-11-25): every message
 * is a POST whose answer is JSON, an SSE stream, or 202. It keeps the session id,
 * opens the standalone GET stream when the client takes server-initiated
 * messages, resumes broken streams with `Last-Event-ID`, applies the retry
 * policy, and falls back to the 2024-11-05 HTTP+SSE transport when a server
 * refuses `initialize`. Web standards only: it runs wherever `fetch` and
 * `ReadableStream` do. Reading SSE and everything beyond the happy path load on
 * first use through on-demand.ts: the GET stream, the fallback, retries,
 * redirects and resumption. A healthy JSON exchange never downloads them.
 */
export class StreamableHttpTransport implements Transport, TransportHooks {
  readonly #options: StreamableHttpTransportOptions;
  readonly #http: HttpRequester;
  readonly #inbound = new MessageQueue<TransportEvent>();
  /** Aborts every request and body this transport holds, on close. */
  readonly #closer = new AbortController();
  readonly #maxBytes: number;
  /**
   * SSE bodies being read, so close cancels them: an object keyed by a count,
   * not a `Set`, which one add and delete per answered call would make rehash
   * into a chain of tables (see `RpcChannel`'s pending calls).
   */
  #readers: Record<number, ReadableStreamDefaultReader<Uint8Array>> = {};
  #readerCount = 0;
  /** Where every SSE body this transport reads delivers its messages. */
  readonly #sse: EventStreamTarget;
  #sessionId: string | undefined;
  /**
   * The server said the session is gone (404) and no new one has started yet.
   * Requests then fail at once with SessionExpiredError, so the Client renews the
   * session and resends, instead of going out without a session id: a server
   * refuses those (400) and never with the 404 that would start a renewal.
   */
  #lost = false;
  #protocolVersion: string | undefined;
  /** The session may have a GET stream: a legacy-era Streamable HTTP session, stream not turned off. */
  #mayOpenGetStream = false;
  /** Stops the GET stream; set from the moment it is asked for, before its code has loaded. */
  #stream: AbortController | undefined;
  #legacy: LegacySseSession | undefined;
  #closing: Promise<void> | undefined;

  /** A transport to the MCP endpoint at `url`; nothing is sent until the client connects. */
  constructor(url: string | URL, options: StreamableHttpTransportOptions = {}) {
    this.#options = options;
    this.#http = new HttpRequester(new URL(url), options);
    this.#maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#sse = {
      inbound: this.#inbound,
      maxBytes: this.#maxBytes,
      track: (reader) => {
        const key = this.#readerCount++;
        this.#readers[key] = reader;
        return () => delete this.#readers[key];
      },
    };
  }

  /** The session id the server assigned, once it did. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /** Aborting a request closes its stream, which is how 2026-07-28 cancels over HTTP. */
  readonly cancelsByClosing = true;

  /** The endpoint: the era verdict is cached per server. */
  get serverKey(): string {
    return this.#http.url.href;
  }

  /** Names the credentials the next request would carry (token provider, `auth`), never the token. */
  credentialKey(): Promise<string> {
    return this.#http.credentialKey();
  }

  /** Whether the server turned out to speak the deprecated HTTP+SSE transport. */
  get usesLegacySse(): boolean {
    return this.#legacy !== undefined;
  }

  /** Every answer, server request and notification, from POST answers and the GET stream alike. */
  messages(): AsyncIterable<TransportEvent> {
    return this.#inbound;
  }

  /**
   * The handshake finished: version headers from now on, and the GET stream
   * opens unless the client does nothing with server-initiated messages (the
   * stream is a MAY, 2025-03-26 on; `openServerStream` opens it later).
   */
  sessionStarted(info: SessionInfo): void {
    this.#protocolVersion = info.protocolVersion;
    if (info.sessionId !== undefined) this.#sessionId = info.sessionId;
    this.#lost = false;
    this.#stopStream();
    // 2026-07-28 has no GET stream (a modern server answers 405); HTTP+SSE has its own.
    this.#mayOpenGetStream = info.era === 'legacy' && !this.#legacy && this.#options.standaloneStream !== false;
    if (info.serverMessages !== false) this.openServerStream();
  }

  /** Opens the session's GET stream if it may have one and has none yet. */
  openServerStream(): void {
    if (!this.#mayOpenGetStream || this.#stream || this.#closer.signal.aborted) return;
    // Taken now, so a second call opens nothing; a close or a lost session
    // aborts the stream through it, loaded or not.
    const stopper = new AbortController();
    this.#stream = stopper;
    // The GET goes out now, not after the code that reads it has loaded: a
    // server may send on it as soon as the next call runs.
    const first = this.#http.send({
      method: 'GET',
      headers: this.#sseHeaders(),
      signal: stopper.signal,
      idempotent: true,
    });
    // Its failure is the runner's to handle; until the runner awaits it, it is not unhandled.
    first.catch(() => {});
    void recovery().then(
      ({ runStandaloneStream }) =>
        runStandaloneStream({
          http: this.#http,
          sse: this.#sse,
          headers: this.#sseHeaders,
          signal: stopper.signal,
          // A 404 on the stream of a session already replaced says nothing about the new one.
          onSessionGone: () => {
            if (this.#stream === stopper) this.#forgetSession();
          },
          report: this.#report,
          first,
          reconnect: this.#options.streamReconnect,
        }),
      (error: unknown) => {
        void first.then(discard, () => {});
        this.#report(error);
      },
    );
  }

  /**
   * POSTs one message. Resolves once the server took it (202) or answered it:
   * the answer goes to `messages()`, an SSE one as it arrives. Rejects when the
   * message could not be delivered or its answer is unusable; the Client fails
   * that one call.
   */
  async send(message: JsonRpcMessage, options: SendOptions = {}): Promise<void> {
    if (this.#closing) throw new ClientClosedError(CLOSED);
    // The Client's per-call signal ends this request (timeout, abort, close).
    if (options.signal) {
      await this.#exchange(message, options as SignalledSend);
      return;
    }
    // A send without one (an answer to the server; the Client's notifications carry
    // a signal of their own) is bounded by the transport's life, through a signal of
    // its own (linked-signal.ts says why),
    // let go once its exchange, a stream read in the background included, is done.
    const link = linkedSignal(this.#closer.signal);
    let reading: Promise<void> | undefined;
    try {
      reading = (await this.#exchange(message, { ...options, signal: link.signal }))?.reading;
    } finally {
      if (reading) void reading.finally(link.unlink);
      else link.unlink();
    }
  }

  /**
   * Sends one message and hands its response to the method for its outcome.
   * (A network failure, a 429 or 503 and a redirect are the requester's, before
   * any response stands.)
   */
  async #exchange(message: JsonRpcMessage, options: SignalledSend): Exchange {
    if (this.#legacy) return this.#legacy.send(message, options);
    const method = 'method' in message ? message.method : undefined;
    const requestId = method !== undefined && 'id' in message ? (message.id as RequestId) : undefined;
    const initialize = method === 'initialize';
    // Only the handshake of a new session goes out while the old one is gone.
    if (this.#lost && !initialize && method !== 'notifications/initialized') {
      throw new SessionExpiredError(this.#http.url.href);
    }
    const sentSession = initialize ? undefined : this.#sessionId;
    const response = await this.#post(message, options, initialize);
    const { status } = response;
    if (status === 404 && sentSession !== undefined) return this.#sessionGone(response, sentSession);
    if (initialize && FALLBACK_STATUSES.includes(status) && this.#options.legacyFallback !== false) {
      return this.#fallBack(response, message, options);
    }
    if (!response.ok) return this.#errorResponse(response, requestId);
    if (initialize) this.#sessionId = response.headers.get(SESSION_HEADER) ?? this.#sessionId;
    // Accepted (202), or the answer to a notification or a response: nothing to read.
    if (status === 202 || requestId === undefined) return discard(response);
    // The stream is of the session the request went out in; an initialize's, of the one it opened.
    const session = initialize ? this.#sessionId : sentSession;
    return this.#answered(response, method as string, requestId, options.signal, session);
  }

  /** POSTs `message` with the session's headers; a new session opens with neither version nor session id. */
  #post(message: JsonRpcMessage, options: SignalledSend, initialize: boolean): Promise<Response> {
    const headers = this.#headers(JSON_OR_SSE, options.headers);
    headers.set('content-type', JSON_TYPE);
    // Checklist §1.5, even when a renewal that never finished left a session id.
    if (initialize) {
      headers.delete(VERSION_HEADER);
      headers.delete(SESSION_HEADER);
    }
    return this.#http.send({
      method: 'POST',
      headers,
      body: JSON.stringify(message),
      signal: options.signal,
      idempotent: options.idempotent === true,
    });
  }

  /** 404 to a request sent in a session: the session is gone (2025-03-26 on, Session Management). */
  async #sessionGone(response: Response, sentSession: string): Promise<never> {
    await discard(response);
    // A late 404 for a session already replaced must not wipe out the new one.
    if (sentSession === this.#sessionId) this.#forgetSession();
    throw new SessionExpiredError(this.#http.url.href);
  }

  /**
   * `initialize` refused with 400, 404 or 405: the server may speak the 2024-11-05
   * HTTP+SSE transport, and every later message goes through its session.
   */
  async #fallBack(response: Response, message: JsonRpcMessage, options: SignalledSend): Promise<void> {
    const { LegacySseSession } = await legacySse().catch(async (error: unknown) => {
      await discard(response);
      throw error;
    });
    // The session ends with its stream: every call then fails at once, none waits for its timeout.
    const legacy = new LegacySseSession(this.#http, this.#sse, this.#closer.signal, (error) =>
      this.#inbound.fail(error),
    );
    // The error response goes along unread: if no stream opens either, it is what failed.
    await legacy.open(this.#sseHeaders(), response);
    // Only a stream that opened makes this an HTTP+SSE server; else the next
    // request (a re-probe, say) still goes out as Streamable HTTP.
    this.#legacy = legacy;
    return legacy.send(message, options);
  }

  /**
   * Any other status that is no success. A server may refuse with a JSON-RPC
   * error in the body (2026-07-28: UnsupportedProtocolVersion,
   * MissingRequiredClientCapability or HeaderMismatch with 400; MethodNotFound
   * with 404): that error is the answer. Otherwise an HttpError.
   */
  async #errorResponse(response: Response, requestId: RequestId | undefined): Promise<void> {
    this.#deliver(await readErrorResponse(response, this.#http.url, requestId));
  }

  /**
   * A success that answers request `requestId`: an SSE stream, read in the
   * background (a server may keep it open after the response, and that must not
   * hold up this send or any other call), or a JSON body.
   */
  async #answered(
    response: Response,
    method: string,
    requestId: RequestId,
    signal: AbortSignal,
    session: string | undefined,
  ): Exchange {
    const type = contentType(response);
    if (type.startsWith(SSE)) {
      const reading = readPostStream(response.body, {
        http: this.#http,
        sse: this.#sse,
        headers: this.#sseHeaders,
        session,
        // A 404 to a resumption: the session is gone, and the next request renews it.
        onSessionGone: () => {
          if (session === this.#sessionId) this.#forgetSession();
        },
        requestId,
        signal,
        maxAttempts: this.#options.maxResumeAttempts,
        report: this.#report,
      });
      return { reading };
    }
    if (!type.startsWith(JSON_TYPE)) {
      await discard(response);
      throw new ProtocolError(
        `${method}: unexpected response content type ${JSON.stringify(type)} from ${this.#http.url}`,
      );
    }
    this.#inbound.push({ type: 'message', ...(await jsonAnswer(response, requestId, this.#maxBytes)) });
  }

  /** Headers for a GET of an SSE stream (the session's own, a resumption, HTTP+SSE). */
  readonly #sseHeaders = (): Headers => this.#headers(SSE);

  #deliver(message: unknown): void {
    this.#inbound.push({ type: 'message', message });
  }

  /** Reports a problem inbound: it fails call `requestId` when given, else goes to `onError`. */
  readonly #report = (problem: unknown, requestId?: RequestId): void => {
    const error = problem instanceof Error ? problem : new TransportError(String(problem));
    this.#inbound.push({ type: 'error', error, requestId });
  };

  #headers(accept: string, extra?: Readonly<Record<string, string>>): Headers {
    const headers = new Headers(this.#options.headers);
    if (extra) setAll(headers, extra);
    headers.set('accept', accept);
    if (this.#sessionId !== undefined) headers.set(SESSION_HEADER, this.#sessionId);
    // The header exists from 2025-06-18 on; before, servers assume 2025-03-26.
    if (this.#protocolVersion !== undefined && this.#protocolVersion >= '2025-06-18') {
      headers.set(VERSION_HEADER, this.#protocolVersion);
    }
    return headers;
  }

  #stopStream(): void {
    this.#stream?.abort();
    this.#stream = undefined;
  }

  #forgetSession(): void {
    this.#sessionId = undefined;
    this.#lost = true;
    this.#mayOpenGetStream = false;
    this.#stopStream();
  }

  /** Closes every open body, ends the inbound stream, and DELETEs the session (bounded, best effort). */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    const session = this.#sessionId;
    this.#closer.abort(new ClientClosedError(CLOSED));
    for (const reader of Object.values(this.#readers)) reader.cancel().catch(() => {});
    this.#readers = {};
    this.#stopStream();
    this.#inbound.end();
    if (session === undefined || this.#legacy || this.#options.endSessionOnClose === false) return;
    try {
      const signal = AbortSignal.timeout(this.#options.closeTimeout ?? DEFAULT_CLOSE_TIMEOUT);
      await discard(
        await this.#http.send({ method: 'DELETE', headers: this.#headers(JSON_OR_SSE), signal, idempotent: true }),
      );
    } catch {
      // Best effort: the server frees the session on its own timeout anyway.
    }
  }
}
