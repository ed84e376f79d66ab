import { ProtocolError } from '../../../errors/protocol-error.js';
import type { RequestId } from '../../../protocol/jsonrpc.js';
import type { MessageQueue } from '../../message-queue.js';
import type { TransportEvent } from '../../transport.js';
import { answers } from '../json-answer.js';
import { readSse } from './sse-events.js';

/** Where a transport's SSE bodies deliver their messages, and what bounds them. */
export interface EventStreamTarget {
  /** The transport's inbound stream. */
  readonly inbound: MessageQueue<TransportEvent>;
  /** Longest event data accepted, in bytes (`maxMessageBytes`). */
  readonly maxBytes: number;
  /** Told each reader while it reads, so a transport closing can cancel it; returns what forgets it. */
  readonly track: (reader: ReadableStreamDefaultReader<Uint8Array>) => () => void;
}

/**
 * Where an SSE stream got to: what a resumption needs, and whether the awaited
 * response came. A stream read from its start has `{ answered: false }`.
 */
export interface SseCursor {
  /** The last event id the stream gave: sent back as `Last-Event-ID` to resume it. */
  lastEventId?: string | undefined;
  /** The server's last `retry:` hint, in ms: how long to wait before resuming. */
  retryMs?: number | undefined;
  /** The response the stream's request awaits has arrived. */
  answered: boolean;
}

/** One SSE event, as a caller's `onEvent` sees it. */
export interface SseEvent {
  readonly event?: string | undefined;
  readonly data: string;
}

/**
 * Reads an SSE body to its end, pushing each event's message to
 * `target.inbound` in arrival order. Priming events (an id and empty data,
 * 2025-11-25), comments and event types other than `message` are skipped; data
 * that is not JSON fails call `requestId`, if given, and is reported otherwise.
 * The response to `requestId` ends the read. `onEvent` sees each event first:
 * returning true takes it (the HTTP+SSE `endpoint` event), so it is not
 * delivered. Resolves with the error that broke the stream, or undefined when
 * it ended cleanly; never rejects.
 */
export function readMessages(
  body: ReadableStream<Uint8Array>,
  target: EventStreamTarget,
  cursor: SseCursor,
  requestId?: RequestId,
  onEvent?: (event: SseEvent) => boolean,
): Promise<Error | undefined> {
  return readSse(body, {
    ...target,
    onRetry: (ms) => {
      cursor.retryMs = ms;
    },
    onEvent: (event) => {
      // An empty id resets the last event id, and an empty one is never sent
      // back (HTML, server-sent events, §9.2.6 and §9.2.4).
      if (event.id !== undefined) cursor.lastEventId = event.id === '' ? undefined : event.id;
      if (onEvent?.(event)) return false;
      const { data } = event;
      if (data === '' || (event.event !== undefined && event.event !== 'message')) return false;
      let message: unknown;
      try {
        message = JSON.parse(data);
      } catch (error) {
        const problem = new ProtocolError(`an SSE event is not JSON: ${data.slice(0, 120)}`, {}, { cause: error });
        target.inbound.push({ type: 'error', error: problem, requestId });
        return false;
      }
      if (requestId !== undefined && answers(message, requestId)) cursor.answered = true;
      target.inbound.push({ type: 'message', message, size: data.length });
      // The response ends the request's stream (2025-03-26 on): stop there, so
      // a server that holds the stream open does not hold a socket per call.
      return cursor.answered;
    },
  });
}
