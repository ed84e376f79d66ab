import { ProtocolError } from '../../errors/protocol-error.js';
import type { RequestId } from '../../protocol/jsonrpc.js';
import { lazy } from '../../util/lazy.js';
import type { MessageQueue } from '../message-queue.js';
import type { TransportEvent } from '../transport.js';

/**
 * The SSE reader (with eventsource-parser), loaded on the first `text/event-stream`
 * body: a server that answers JSON — as 2026-07-28 servers and stateless ones
 * commonly do — never costs a program the parser.
 */
const sseReader = lazy(() => import('./sse-events.js'));

/** Where a stream got to: what a resumption needs, and whether the awaited response came. */
export interface SseCursor {
  lastEventId: string | undefined;
  retryMs: number | undefined;
  answered: boolean;
}

/** A cursor for a stream read from its start. */
export function newCursor(): SseCursor {
  return { lastEventId: undefined, retryMs: undefined, answered: false };
}

/**
 * Turns SSE bodies into inbound messages, in arrival order. Priming events
 * (an id and empty data, 2025-11-25), comments and event types other than
 * `message` are skipped; data that is not JSON fails the call the stream
 * belongs to, if any, and is reported otherwise.
 */
export class SseMessages {
  readonly #inbound: MessageQueue<TransportEvent>;
  readonly #maxBytes: number;
  readonly #readers = new Set<ReadableStreamDefaultReader<Uint8Array>>();

  constructor(inbound: MessageQueue<TransportEvent>, maxBytes: number) {
    this.#inbound = inbound;
    this.#maxBytes = maxBytes;
  }

  /**
   * Reads `body` to its end. Resolves with the error that broke the stream, or
   * undefined when it ended cleanly; never rejects.
   */
  async read(
    body: ReadableStream<Uint8Array>,
    cursor: SseCursor,
    requestId?: RequestId,
    onEvent?: (event: { event?: string | undefined; data: string }) => boolean,
  ): Promise<Error | undefined> {
    let readSse: Awaited<ReturnType<typeof sseReader>>['readSse'];
    try {
      ({ readSse } = await sseReader());
    } catch (error) {
      await body.cancel().catch(() => {});
      return error instanceof Error ? error : new Error(String(error));
    }
    return readSse(body, {
      maxLineBytes: this.#maxBytes,
      onRetry: (ms) => {
        cursor.retryMs = ms;
      },
      track: this.#track,
      onEvent: (event) => {
        // An empty id resets the last event id, and an empty one is never sent
        // back (HTML, server-sent events, §9.2.6 and §9.2.4).
        if (event.id !== undefined) cursor.lastEventId = event.id === '' ? undefined : event.id;
        if (onEvent?.(event)) return false;
        if (event.data === '' || (event.event !== undefined && event.event !== 'message')) return false;
        this.#deliver(event.data, cursor, requestId);
        // The response ends the request's stream (2025-03-26 on): stop there, so
        // a server that holds the stream open does not hold a socket per call.
        return cursor.answered;
      },
    });
  }

  /** Cancels every body still being read (the transport is closing). */
  cancelAll(): void {
    for (const reader of this.#readers) reader.cancel().catch(() => {});
    this.#readers.clear();
  }

  readonly #track = (reader: ReadableStreamDefaultReader<Uint8Array>): (() => void) => {
    this.#readers.add(reader);
    return () => this.#readers.delete(reader);
  };

  #deliver(data: string, cursor: SseCursor, requestId: RequestId | undefined): void {
    let message: unknown;
    try {
      message = JSON.parse(data);
    } catch {
      const error = new ProtocolError(`an SSE event is not JSON: ${data.slice(0, 120)}`);
      this.#inbound.push(errorEvent(error, requestId));
      return;
    }
    if (requestId !== undefined && answers(message, requestId)) cursor.answered = true;
    this.#inbound.push({ type: 'message', message });
  }
}

/** Whether `message` is the response to request `id`. */
export function answers(message: unknown, id: RequestId): message is { id: RequestId } {
  if (typeof message !== 'object' || message === null || 'method' in message) return false;
  return 'id' in message && message.id === id;
}

/** An inbound problem: it fails call `requestId` when given, else it is reported (`onError`). */
export function errorEvent(error: Error, requestId: RequestId | undefined): TransportEvent {
  return requestId === undefined ? { type: 'error', error } : { type: 'error', error, requestId };
}
