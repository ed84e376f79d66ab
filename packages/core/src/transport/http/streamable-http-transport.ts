import { ClientClosedError } from '../../errors/client-closed-error.js';
import { ProtocolError } from '../../errors/protocol-error.js';
import { SessionExpiredError } from '../../errors/session-expired-error.js';
import { TransportError } from '../../errors/transport-error.js';
import type { JsonRpcMessage, RequestId } from '../../protocol/jsonrpc.js';
import { setAll } from '../../util/headers.js';
import { lazy } from '../../util/lazy.js';
import { linkedSignal } from '../../util/linked-signal.js';
import { MessageQueue } from '../message-queue.js';
import type { SendOptions, SessionInfo, Transport, TransportEvent, TransportHooks } from '../transport.js';
import { HttpRequester } from './http-requester.js';
import type { LegacySseSession } from './legacy-sse-session.js';
import { DEFAULT_CLOSE_TIMEOUT, DEFAULT_MAX_MESSAGE_BYTES, type StreamableHttpTransportOptions } from './options.js';
import { contentType, discard, readBodyText } from './read-body.js';
import { refusal } from './refused-response.js';
import { answers, errorEvent, newCursor, SseMessages } from './sse-messages.js';

/** What a send carries once it has the signal that ends it. */
type SignalledSend = SendOptions & { readonly signal: AbortSignal };

const CLOSED = 'StreamableHttpTransport: closed';
const SESSION_HEADER = 'mcp-session-id';
const VERSION_HEADER = 'mcp-protocol-version';
const SSE = 'text/event-stream';
const JSON_TYPE = 'application/json';
const JSON_OR_SSE = `${JSON_TYPE}, ${SSE}`;

// Loaded on first use: the GET stream and the HTTP+SSE fallback where a session
// needs them, the rest only when something went wrong.
const standaloneStream = lazy(() => import('./standalone-stream.js'));
const httpSseFallback = lazy(() => import('./legacy-sse-session.js'));
const unanswered = lazy(() => import('./unanswered.js'));
const postStreamResumption = lazy(() => import('./resume-post-stream.js'));

/**
 * The Streamable HTTP client transport (2025-03-26 … 2025-11-25): every message
 * is a POST whose answer is JSON, an SSE stream, or 202. It keeps the session id,
 * opens the standalone GET stream when the client takes server-initiated
 * messages, resumes broken streams with `Last-Event-ID`, applies the retry
 * policy, and falls back to the 2024-11-05 HTTP+SSE transport when a server
 * refuses `initialize`. Web standards only: it runs wherever `fetch` and
 * `ReadableStream` do. The GET stream, the fallback and the handling of what
 * went wrong load on first use, so a healthy exchange never downloads them.
 */
export class StreamableHttpTransport implements Transport, TransportHooks {
  readonly #options: StreamableHttpTransportOptions;
  readonly #http: HttpRequester;
  readonly #inbound = new MessageQueue<TransportEvent>();
  /** Aborts every request and body this transport holds, on close. */
  readonly #closer = new AbortController();
  readonly #sse: SseMessages;
  readonly #maxBytes: number;
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
  #streamable = false;
  /** Stops the GET stream; set from the moment it is asked for, before its code has loaded. */
  #stream: AbortController | undefined;
  #legacy: LegacySseSession | undefined;
  #closing: Promise<void> | undefined;

  constructor(url: string | URL, options: StreamableHttpTransportOptions = {}) {
    this.#options = options;
    this.#http = new HttpRequester(new URL(url), options);
    this.#maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#sse = new SseMessages(this.#inbound, this.#maxBytes);
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

  credentialKey(): Promise<string> {
    return this.#http.credentialKey();
  }

  /** Whether the server turned out to speak the deprecated HTTP+SSE transport. */
  get usesLegacySse(): boolean {
    return this.#legacy !== undefined;
  }

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
    this.#streamable = info.era === 'legacy' && !this.#legacy && this.#options.standaloneStream !== false;
    if (info.serverMessages !== false) this.openServerStream();
  }

  /** Opens the session's GET stream if it may have one and has none yet. */
  openServerStream(): void {
    if (!this.#streamable || this.#stream || this.#closer.signal.aborted) return;
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
    void standaloneStream().then(
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

  /** Sends one message; resolves with the read of its response stream when that goes on in the background. */
  async #exchange(message: JsonRpcMessage, options: SignalledSend): Promise<{ reading: Promise<void> } | void> {
    if (this.#legacy) return this.#legacy.send(message, options);
    const { signal } = options;
    const requestId = 'method' in message && 'id' in message ? (message.id as RequestId) : undefined;
    const method = 'method' in message ? message.method : undefined;
    const initialize = method === 'initialize';
    // Only the handshake of a new session goes out while the old one is gone.
    if (this.#lost && !initialize && method !== 'notifications/initialized') {
      throw new SessionExpiredError(this.#http.url.href);
    }
    const headers = this.#headers(JSON_OR_SSE, options.headers);
    headers.set('content-type', JSON_TYPE);
    // A new session opens with no version header and no session id (checklist §1.5),
    // even when a renewal that never finished left one.
    if (initialize) {
      headers.delete(VERSION_HEADER);
      headers.delete(SESSION_HEADER);
    }
    const sentSession = initialize ? undefined : this.#sessionId;
    const response = await this.#http.send({
      method: 'POST',
      headers,
      body: JSON.stringify(message),
      signal,
      idempotent: options.idempotent === true,
    });
    const { status } = response;

    if (status === 404 && sentSession !== undefined) {
      await discard(response);
      // A late 404 for a session already replaced must not wipe out the new one.
      if (sentSession === this.#sessionId) this.#forgetSession();
      throw new SessionExpiredError(this.#http.url.href);
    }
    if (initialize && [400, 404, 405].includes(status) && this.#options.legacyFallback !== false) {
      await discard(response);
      const { LegacySseSession } = await httpSseFallback();
      // The session ends with its stream: every call then fails at once, none waits for its timeout.
      const legacy = new LegacySseSession(this.#http, this.#sse, this.#closer.signal, (error) =>
        this.#inbound.fail(error),
      );
      await legacy.open(this.#sseHeaders());
      // Only a stream that opened makes this an HTTP+SSE server; else the next
      // request (a re-probe, say) still goes out as Streamable HTTP.
      this.#legacy = legacy;
      return legacy.send(message, options);
    }
    if (!response.ok) {
      // A server may refuse with a JSON-RPC error in the body (2026-07-28 sends
      // -32022/-32021/-32020 with 400; 404 + -32601): that error is the answer.
      const refused = requestId === undefined ? undefined : await refusal(response, requestId);
      if (!refused?.answer) throw await this.#http.failure(response, this.#http.url, refused?.text);
      return this.#deliver(refused.answer);
    }

    const session = response.headers.get(SESSION_HEADER);
    if (session !== null && initialize) this.#sessionId = session;
    if (status === 202 || requestId === undefined) return discard(response);
    const type = contentType(response);
    if (type.startsWith(SSE)) {
      // Read in the background: a server may keep the stream open after the
      // response, and that must not hold up this send or any other call.
      // The stream is of the session the request went out in; an initialize's, of the one it opened.
      const streamSession = initialize ? this.#sessionId : sentSession;
      return { reading: this.#readPostStream(response, requestId, signal, streamSession) };
    } else if (type.startsWith(JSON_TYPE)) {
      await this.#readJson(response, requestId);
    } else {
      await discard(response);
      throw new ProtocolError(
        `${method}: unexpected response content type ${JSON.stringify(type)} from ${this.#http.url}`,
      );
    }
  }

  /**
   * A JSON answer to a request is its response (or a 2025-03-26 batch holding
   * it). Anything else fails that call instead of leaving it to time out.
   */
  async #readJson(response: Response, requestId: RequestId): Promise<void> {
    const text = await readBodyText(response, this.#maxBytes);
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      // Not JSON, so it answers nothing: `unanswered` says so.
    }
    const items = Array.isArray(message) ? message : [message];
    if (!items.some((item) => answers(item, requestId))) throw (await unanswered()).unansweredError(text, requestId);
    this.#deliver(message);
  }

  /**
   * Reads a POST's SSE stream until its response arrives. A stream that breaks
   * first is resumed (resume-post-stream.ts, loaded then); a call that cannot
   * complete fails alone.
   */
  async #readPostStream(
    response: Response,
    requestId: RequestId,
    signal: AbortSignal,
    session: string | undefined,
  ): Promise<void> {
    const cursor = newCursor();
    const broken = response.body ? await this.#sse.read(response.body, cursor, requestId) : undefined;
    if (cursor.answered || signal.aborted) return;
    try {
      const { resumePostStream } = await postStreamResumption();
      await resumePostStream({
        http: this.#http,
        sse: this.#sse,
        headers: this.#sseHeaders,
        session,
        // A 404 to the resumption: the session is gone, and the next request renews it.
        onSessionGone: () => {
          if (session === this.#sessionId) this.#forgetSession();
        },
        cursor,
        requestId,
        signal,
        broken,
        maxAttempts: this.#options.maxResumeAttempts,
      });
    } catch (error) {
      // An aborted call already has its answer.
      if (!signal.aborted) this.#report(error, requestId);
    }
  }

  /** Headers for a GET of an SSE stream (the session's own, a resumption, HTTP+SSE). */
  readonly #sseHeaders = (): Headers => this.#headers(SSE);

  #deliver(message: unknown): void {
    this.#inbound.push({ type: 'message', message });
  }

  /** Reports a problem inbound: it fails call `requestId` when given, else goes to `onError`. */
  readonly #report = (problem: unknown, requestId?: RequestId): void => {
    const error = problem instanceof Error ? problem : new TransportError(String(problem));
    this.#inbound.push(errorEvent(error, requestId));
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
    this.#streamable = false;
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
    this.#sse.cancelAll();
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
