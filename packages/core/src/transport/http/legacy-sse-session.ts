import { ProtocolError } from '../../errors/protocol-error.js';
import { TransportError } from '../../errors/transport-error.js';
import type { JsonRpcMessage } from '../../protocol/jsonrpc.js';
import { discard } from '../../util/read-body.js';
import type { SendOptions } from '../transport.js';
import { httpError } from './error-response.js';
import { type EventStreamTarget, readMessages, type SseEvent } from './event-stream/index.js';
import type { Requester } from './http-request.js';

/**
 * The deprecated HTTP+SSE transport of 2024-11-05, used only as a fallback: a GET
 * opens the event stream, whose first `endpoint` event names the URL to POST
 * every message to; every server message arrives on the stream. Auth headers go
 * on the GET and on every POST. An on-demand module of its own (on-demand.ts),
 * loaded only when a server refuses `initialize`.
 */
export class LegacySseSession {
  readonly #http: Requester;
  readonly #sse: EventStreamTarget;
  readonly #signal: AbortSignal;
  readonly #onEnd: (error: Error) => void;
  #endpoint: URL | undefined;

  /** `onEnd` learns that the stream ended after it opened: the session is gone with it. */
  constructor(http: Requester, sse: EventStreamTarget, signal: AbortSignal, onEnd: (error: Error) => void) {
    this.#http = http;
    this.#sse = sse;
    this.#signal = signal;
    this.#onEnd = onEnd;
  }

  /**
   * Opens the stream with `headers` and waits for its `endpoint` event.
   * `errorResponse` is the error response to the Streamable HTTP POST, its body
   * unread. When the GET fails too, no HTTP+SSE server is there either: the
   * POST's error response is the failure (an HttpError), the GET's its `cause`.
   */
  async open(headers: Headers, errorResponse: Response): Promise<void> {
    const http = this.#http;
    const response = await http
      .send({ method: 'GET', headers, signal: this.#signal, idempotent: true })
      .catch(async (error: unknown) => {
        await discard(errorResponse);
        throw error;
      });
    if (!response.ok || !response.body) {
      throw await httpError(errorResponse, http.url, undefined, { cause: await httpError(response, http.url) });
    }
    await discard(errorResponse);
    const body = response.body;
    this.#endpoint = await new Promise<URL>((resolve, reject) => {
      const onEvent = (event: SseEvent) => {
        if (event.event !== 'endpoint') return false;
        const url = endpointUrl(event.data.trim(), http.url);
        // The endpoint must stay on the server's origin, or our credentials would follow it elsewhere.
        if (!url) {
          const named = JSON.stringify(event.data.trim().slice(0, 200));
          reject(new ProtocolError(`HTTP+SSE endpoint ${named} of ${http.url.href} is not a URL`));
        } else if (url.origin !== http.url.origin) {
          reject(new ProtocolError(`HTTP+SSE endpoint ${url.href} is not on the origin of ${http.url.href}`));
        } else {
          resolve(url);
        }
        return true;
      };
      void readMessages(body, this.#sse, { answered: false }, undefined, onEvent).then((broken) => {
        const reason = broken ? `: ${broken.message}` : '';
        const ended = new TransportError(`the HTTP+SSE stream of ${http.url.href} ended${reason}`, { cause: broken });
        reject(ended);
        // After the endpoint, every answer was to come on this stream (2024-11-05 "HTTP with SSE").
        if (this.#endpoint && !this.#signal.aborted) this.#onEnd(ended);
      });
    });
  }

  /** POSTs one message to the endpoint; its answer comes on the stream. */
  async send(message: JsonRpcMessage, options: SendOptions): Promise<void> {
    const url = this.#endpoint;
    if (!url) throw new TransportError('HTTP+SSE: no endpoint yet');
    const headers = new Headers(options.headers);
    headers.set('content-type', 'application/json');
    const response = await this.#http.send({
      method: 'POST',
      url,
      headers,
      body: JSON.stringify(message),
      // The Client's per-call signal ends this POST (timeout, abort, close); else the session's own.
      signal: options.signal ?? this.#signal,
      idempotent: options.idempotent === true,
    });
    if (!response.ok) throw await httpError(response, url);
    await discard(response);
  }
}

/** The endpoint an `endpoint` event names, resolved against the stream's URL; undefined when it is no URL. */
function endpointUrl(data: string, base: URL): URL | undefined {
  // Checked here, not thrown: a throw inside the event callback would end the
  // stream with a bare TypeError instead of saying what was wrong.
  try {
    return new URL(data, base);
  } catch {
    return undefined;
  }
}
