import { ClientClosedError } from '../../errors/client-closed-error.js';
import { ProtocolError } from '../../errors/protocol-error.js';
import { RpcError } from '../../errors/rpc-error.js';
import { SessionExpiredError } from '../../errors/session-expired-error.js';
import { TransportError } from '../../errors/transport-error.js';
import type { JsonRpcMessage, RequestId } from '../../protocol/jsonrpc.js';
import { MessageQueue } from '../message-queue.js';
import type { SendOptions, SessionInfo, Transport, TransportEvent } from '../transport.js';
import { sleep } from './backoff.js';
import { HttpRequester } from './http-requester.js';
import { LegacySseSession } from './legacy-sse-session.js';
import {
  DEFAULT_CLOSE_TIMEOUT,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_RESUME_ATTEMPTS,
  type StreamableHttpTransportOptions,
} from './options.js';
import { readBodyText } from './read-body.js';
import { answers, idLessError, type SseCursor, SseMessages } from './sse-messages.js';
import { StandaloneStream } from './standalone-stream.js';

const SESSION_HEADER = 'mcp-session-id';

/**
 * The Streamable HTTP client transport (2025-03-26 … 2025-11-25): every message
 * is a POST whose answer is JSON, an SSE stream, or 202. It keeps the session id,
 * opens the standalone GET stream, resumes broken streams with `Last-Event-ID`,
 * applies the retry policy, and falls back to the 2024-11-05 HTTP+SSE transport
 * when a server refuses `initialize`. Web standards only: it runs wherever
 * `fetch` and `ReadableStream` do.
 */
export class StreamableHttpTransport implements Transport {
  readonly #options: StreamableHttpTransportOptions;
  readonly #http: HttpRequester;
  readonly #inbound = new MessageQueue<TransportEvent>();
  /** Aborts every request and body this transport holds, on close. */
  readonly #closer = new AbortController();
  readonly #sse: SseMessages;
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  #standalone: StandaloneStream | undefined;
  #legacy: LegacySseSession | undefined;
  #closing: Promise<void> | undefined;

  constructor(url: string | URL, options: StreamableHttpTransportOptions = {}) {
    this.#options = options;
    this.#http = new HttpRequester(new URL(url), options);
    this.#sse = new SseMessages(this.#inbound, options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
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

  /** The handshake finished: version headers from now on, and the GET stream opens. */
  sessionStarted(info: SessionInfo): void {
    this.#protocolVersion = info.protocolVersion;
    if (info.sessionId !== undefined) this.#sessionId = info.sessionId;
    // 2026-07-28 has no GET stream (a modern server answers 405).
    if (info.era === 'modern' || this.#legacy || this.#options.standaloneStream === false) return;
    if (this.#closer.signal.aborted) return;
    this.#standalone?.stop();
    this.#standalone = new StandaloneStream({
      http: this.#http,
      sse: this.#sse,
      headers: () => this.#headers('text/event-stream'),
      signal: this.#closer.signal,
      onSessionGone: () => this.#forgetSession(),
      report: (error) => this.#inbound.push({ type: 'error', error }),
    });
    this.#standalone.start();
  }

  async send(message: JsonRpcMessage, options: SendOptions = {}): Promise<void> {
    if (this.#closing) throw new ClientClosedError('StreamableHttpTransport: closed');
    if (this.#legacy) return this.#legacy.send(message, options);
    const requestId = 'method' in message && 'id' in message ? (message.id as RequestId) : undefined;
    const method = 'method' in message ? message.method : undefined;
    // The Client's per-call signal ends this request (timeout, abort, close); a
    // send without one is bounded by the transport's own life.
    const signal = options.signal ?? this.#closer.signal;
    const headers = this.#headers('application/json, text/event-stream', options.headers);
    headers.set('content-type', 'application/json');
    // A new session opens with no version header and no session id (checklist §1.5).
    if (method === 'initialize') headers.delete('mcp-protocol-version');
    const sentSession = this.#sessionId;
    const response = await this.#http.send({
      method: 'POST',
      headers,
      body: JSON.stringify(message),
      signal,
      idempotent: options.idempotent === true,
    });

    if (response.status === 404 && sentSession !== undefined) {
      await response.body?.cancel().catch(() => {});
      // A late 404 for a session already replaced must not wipe out the new one.
      if (sentSession === this.#sessionId) this.#forgetSession();
      throw new SessionExpiredError(this.#http.url.href);
    }
    if (
      method === 'initialize' &&
      [400, 404, 405].includes(response.status) &&
      this.#options.legacyFallback !== false
    ) {
      await response.body?.cancel().catch(() => {});
      const legacy = new LegacySseSession(this.#http, this.#sse, this.#closer.signal);
      await legacy.open(() => this.#headers('text/event-stream'));
      // Only a stream that opened makes this an HTTP+SSE server; else the next
      // request (a re-probe, say) still goes out as Streamable HTTP.
      this.#legacy = legacy;
      return legacy.send(message, options);
    }
    if (!response.ok) {
      // A server may refuse with a JSON-RPC error in the body (2026-07-28 sends
      // -32022/-32021/-32020 with 400; 404 + -32601): that error is the answer.
      const answer = requestId === undefined ? undefined : await this.#jsonRpcError(response, requestId);
      if (answer) {
        this.#inbound.push({ type: 'message', message: answer });
        return;
      }
      throw await this.#http.failure(response);
    }

    const session = response.headers.get(SESSION_HEADER);
    if (session !== null && method === 'initialize') this.#sessionId = session;
    if (response.status === 202 || requestId === undefined) {
      await response.body?.cancel().catch(() => {});
      return;
    }
    const type = (response.headers.get('content-type') ?? '').toLowerCase();
    if (type.startsWith('text/event-stream')) {
      // Read in the background: a server may keep the stream open after the
      // response, and that must not hold up this send or any other call.
      void this.#readPostStream(response, requestId, signal);
    } else if (type.startsWith('application/json')) {
      await this.#readJson(response, requestId);
    } else {
      await response.body?.cancel().catch(() => {});
      throw new ProtocolError(
        `${method}: unexpected response content type ${JSON.stringify(type)} from ${this.#http.url}`,
      );
    }
  }

  /** The JSON-RPC error answering `requestId` in a failed response's body, if that is what it holds. */
  async #jsonRpcError(response: Response, requestId: RequestId): Promise<object | undefined> {
    const type = (response.headers.get('content-type') ?? '').toLowerCase();
    if (!type.startsWith('application/json')) return undefined;
    try {
      const body: unknown = JSON.parse(await readBodyText(response.clone(), 64 * 1024));
      const matches =
        typeof body === 'object' && body !== null && 'error' in body && 'id' in body && body.id === requestId;
      return matches ? body : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * A JSON answer to a request is its response (or a 2025-03-26 batch holding
   * it). Anything else fails that call instead of leaving it to time out.
   */
  async #readJson(response: Response, requestId: RequestId): Promise<void> {
    const text = await readBodyText(response, this.#options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      throw new ProtocolError(`the response body is not JSON: ${text.slice(0, 120)}`);
    }
    const items = Array.isArray(message) ? message : [message];
    if (!items.some((item) => answers(item, requestId))) {
      const refusal = idLessError(message);
      if (refusal) throw new RpcError(refusal.code, refusal.message, refusal.data);
      throw new ProtocolError(
        `the JSON response does not answer request ${JSON.stringify(requestId)}: ${text.slice(0, 120)}`,
      );
    }
    this.#inbound.push({ type: 'message', message });
  }

  /**
   * Reads a POST's SSE stream until its response arrives. A stream that breaks
   * first is resumed with GET + `Last-Event-ID` (2025-11-25 polling included),
   * so the call completes without sending the request again.
   */
  async #readPostStream(response: Response, requestId: RequestId, signal: AbortSignal): Promise<void> {
    const cursor: SseCursor = { lastEventId: undefined, retryMs: undefined, answered: false };
    const maxResumes = this.#options.maxResumeAttempts ?? DEFAULT_MAX_RESUME_ATTEMPTS;
    let body = response.body;
    for (let resumes = 0; ; resumes++) {
      const broken = body ? await this.#sse.read(body, cursor, requestId) : undefined;
      if (cursor.answered || signal.aborted) return;
      if (cursor.lastEventId === undefined || resumes >= maxResumes) {
        const why = broken ? `: ${broken.message}` : '';
        this.#inbound.push({
          type: 'error',
          requestId,
          error: new TransportError(`the response stream from ${this.#http.url} ended before the response${why}`, {
            cause: broken,
          }),
        });
        return;
      }
      try {
        if (cursor.retryMs !== undefined) await sleep(cursor.retryMs, signal);
        const headers = this.#headers('text/event-stream');
        headers.set('last-event-id', cursor.lastEventId);
        const resumed = await this.#http.send({ method: 'GET', headers, signal, idempotent: true });
        if (!resumed.ok) throw await this.#http.failure(resumed);
        body = resumed.body;
      } catch (error) {
        if (signal.aborted) return;
        this.#inbound.push({
          type: 'error',
          requestId,
          error: error instanceof Error ? error : new TransportError(String(error)),
        });
        return;
      }
    }
  }

  #headers(accept: string, extra?: Readonly<Record<string, string>>): Headers {
    const headers = new Headers(this.#options.headers);
    if (extra) for (const [name, value] of Object.entries(extra)) headers.set(name, value);
    headers.set('accept', accept);
    if (this.#sessionId !== undefined) headers.set(SESSION_HEADER, this.#sessionId);
    // The header exists from 2025-06-18 on; before, servers assume 2025-03-26.
    if (this.#protocolVersion !== undefined && this.#protocolVersion >= '2025-06-18') {
      headers.set('mcp-protocol-version', this.#protocolVersion);
    }
    return headers;
  }

  #forgetSession(): void {
    this.#sessionId = undefined;
    this.#standalone?.stop();
    this.#standalone = undefined;
  }

  /** Closes every open body, ends the inbound stream, and DELETEs the session (bounded, best effort). */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    const session = this.#sessionId;
    this.#closer.abort(new ClientClosedError('StreamableHttpTransport: closed'));
    this.#sse.cancelAll();
    this.#standalone?.stop();
    this.#inbound.end();
    if (session === undefined || this.#legacy || this.#options.endSessionOnClose === false) return;
    const headers = this.#headers('application/json, text/event-stream');
    headers.set(SESSION_HEADER, session);
    try {
      const signal = AbortSignal.timeout(this.#options.closeTimeout ?? DEFAULT_CLOSE_TIMEOUT);
      const response = await this.#http.send({ method: 'DELETE', headers, signal, idempotent: true });
      await response.body?.cancel().catch(() => {});
    } catch {
      // Best effort: the server frees the session on its own timeout anyway.
    }
  }
}
