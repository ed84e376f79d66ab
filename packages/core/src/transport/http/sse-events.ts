import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ProtocolError } from '../../errors/protocol-error.js';

export interface SseReadOptions {
  /** Most an event may buffer before it is complete (UTF-16 units, ≈ bytes for JSON). */
  readonly maxLineBytes: number;
  readonly onRetry: (ms: number) => void;
  /** Handles one event; `true` means the stream has given what was wanted. */
  readonly onEvent: (event: EventSourceMessage) => boolean;
  /** Told the reader while reading, so a transport closing can cancel it. */
  readonly track: (reader: ReadableStreamDefaultReader<Uint8Array>) => () => void;
}

/** How long a stream may stay open after it gave what was wanted before it is cancelled. */
const LINGER_MS = 1000;

/**
 * Feeds one SSE body through eventsource-parser, in arrival order, with one
 * reader and one streaming decoder (no chain of transform streams per
 * response). Resolves with the error that broke the stream, or undefined when
 * it ended or gave what was wanted; never rejects. A stream that stays open
 * after that is cancelled after a short linger; one that ends on its own, as
 * servers should, is read to its end and never cancelled.
 */
export async function readSse(body: ReadableStream<Uint8Array>, options: SseReadOptions): Promise<Error | undefined> {
  const reader = body.getReader();
  const untrack = options.track(reader);
  const decoder = new TextDecoder();
  let done = false;
  let failure: Error | undefined;
  const parser = createParser({
    onEvent: (event) => {
      if (!done && options.onEvent(event)) done = true;
    },
    onRetry: options.onRetry,
    // The parser counts what it buffers as it scans for line ends: no scan of our own.
    maxBufferSize: options.maxLineBytes,
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') {
        failure ??= new ProtocolError(`SSE event longer than the ${options.maxLineBytes}-byte limit (maxMessageBytes)`);
      }
    },
  });
  try {
    while (!done && !failure) {
      const chunk = await reader.read();
      if (chunk.done) return undefined;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
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
