import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { LimitError } from '../../../errors/limit-error.js';

/** What `readSse` is told: its bound, and where events, `retry:` hints and its reader go. */
export interface SseReadOptions {
  /**
   * Longest event data accepted (UTF-16 units, ≈ bytes for JSON; `maxMessageBytes`):
   * every event is held to it however the bytes were cut, and an incomplete event
   * or line may buffer it plus {@link FIELDS_ROOM} before the stream fails.
   */
  readonly maxBytes: number;
  readonly onRetry: (ms: number) => void;
  /**
   * Handles one event; `true` means the stream has given what was wanted. Its
   * `id` is left out when no `Last-Event-ID` header could carry it ({@link UNSENDABLE_ID}).
   */
  readonly onEvent: (event: EventSourceMessage) => boolean;
  /** Told the reader while reading, so a transport closing can cancel it. */
  readonly track: (reader: ReadableStreamDefaultReader<Uint8Array>) => () => void;
}

/** How long a stream may stay open after it gave what was wanted before it is cancelled. */
const LINGER_MS = 1000;

/**
 * What an incomplete event may buffer beyond `maxBytes`: its field names,
 * line ends, id, event type and comments (64 KiB). The limit that counts is
 * each event's data, checked as the event is dispatched; this one bounds memory
 * while a line or an event is incomplete, and is larger so that it does not
 * fail, in some cuts of the bytes only, an event whose data is within the limit.
 */
export const FIELDS_ROOM = 64 * 1024;

/**
 * An event id that a `Last-Event-ID` header cannot carry as it is: a code unit
 * past U+00FF (`Headers.set` throws on it), a control character (an HTTP field
 * value holds none but tab, RFC 9110 §5.5), or a space or tab at either end
 * (`Headers` trims it, so the server would get another id back). Such an id is
 * ignored as if the event had none, and the last one that could be sent stays
 * the stream's last event id: the SSE spec already ignores an id it cannot use
 * (one with U+0000, HTML §9.2.6), and resuming (MCP 2025-11-25 transports,
 * "Resumability and Redelivery") needs an id the client can send back.
 */
const UNSENDABLE_ID = /[^\t\x20-\x7e\x80-\xff]|^[\t ]|[\t ]$/;

const CR = 13;
const LF = 10;

/**
 * Feeds one SSE body through eventsource-parser, in arrival order, with one
 * reader and one streaming decoder (no chain of transform streams per
 * response). Resolves with the error that broke the stream (a LimitError for
 * an event past the limit), or undefined when it ended or gave what was
 * wanted; never rejects. A stream that stays open after that is cancelled
 * after a short linger; one that ends on its own, as servers should, is read
 * to its end and never cancelled.
 */
export async function readSse(body: ReadableStream<Uint8Array>, options: SseReadOptions): Promise<Error | undefined> {
  const reader = body.getReader();
  const untrack = options.track(reader);
  const decoder = new TextDecoder();
  let done = false;
  let failure: Error | undefined;
  const max = options.maxBytes;
  const tooLong = () => new LimitError('maxMessageBytes', max, 'SSE event too long');
  const parser = createParser({
    onEvent: (event) => {
      if (done || failure) return;
      // The parser bounds only what is still buffered after a chunk: an event
      // that arrives whole inside one chunk is held to the limit here.
      if (event.data.length > max) failure = tooLong();
      else {
        if (event.id !== undefined && UNSENDABLE_ID.test(event.id)) event.id = undefined;
        if (options.onEvent(event)) done = true;
      }
    },
    onRetry: (ms) => {
      if (!done && !failure) options.onRetry(ms);
    },
    // The parser counts what it buffers as it scans for line ends: no scan of our own.
    maxBufferSize: max + FIELDS_ROOM,
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') failure ??= tooLong();
    },
  });
  // A CR ends a line whatever follows it (HTML, server-sent events, §9.2.4), but
  // the parser holds back a CR that ends what it was fed until it sees whether
  // a LF follows: an event that a chunk's last CR completes would wait for the
  // next line end, forever if the stream stalls or ends there. A LF is fed after
  // such a CR (CR LF is one line end, so the CR ends its line at once), and a
  // LF that starts the next chunk is dropped as the second half of that CR LF.
  let skipLf = false;
  const feed = (text: string) => {
    if (skipLf && text !== '') {
      skipLf = false;
      if (text.charCodeAt(0) === LF) text = text.slice(1);
    }
    if (text === '') return;
    parser.feed(text);
    if (text.charCodeAt(text.length - 1) === CR && !done && !failure) {
      parser.feed('\n');
      skipLf = true;
    }
  };
  try {
    while (!done && !failure) {
      const chunk = await reader.read();
      if (chunk.done) return undefined;
      feed(decoder.decode(chunk.value, { stream: true }));
    }
    if (done) await finish(reader);
    else await reader.cancel().catch(() => {});
    return failure;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  } finally {
    untrack();
    reader.releaseLock();
  }
}

/** Lets a stream end by itself for a moment, then cancels it; never throws. */
async function finish(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const linger = new Promise<'linger'>((resolve) => {
    timer = setTimeout(() => resolve('linger'), LINGER_MS);
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), linger]);
      if (next === 'linger') break;
      if (next.done) return;
    }
    await reader.cancel().catch(() => {});
  } catch {
    // A stream that breaks while lingering has nothing more to give anyway.
  } finally {
    clearTimeout(timer);
  }
}
