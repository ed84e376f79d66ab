import { type EventSourceMessage, EventSourceParserStream } from 'eventsource-parser/stream';
import { ProtocolError } from '../../errors/protocol-error.js';

export type { EventSourceMessage };

/**
 * The events of one SSE body, in arrival order. Comments, `retry:` and priming
 * events are the parser's business; `onRetry` hears the server's reconnection
 * delay. A line longer than `maxLineBytes` ends the stream with an error rather
 * than growing a buffer without bound.
 */
export function sseEvents(
  body: ReadableStream<Uint8Array>,
  maxLineBytes: number,
  onRetry: (ms: number) => void,
): AsyncIterable<EventSourceMessage> {
  const stream = body
    // DOM typings say TextDecoderStream takes any BufferSource; bodies are bytes.
    .pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
    .pipeThrough(lineGuard(maxLineBytes))
    .pipeThrough(new EventSourceParserStream({ onRetry, onError: () => {} }));
  return iterate(stream);
}

/** Fails the stream when a line (counted in UTF-16 units, ≈ bytes for JSON) runs past the limit. */
function lineGuard(limit: number): TransformStream<string, string> {
  let run = 0;
  return new TransformStream({
    transform(chunk, controller) {
      const lastBreak = Math.max(chunk.lastIndexOf('\n'), chunk.lastIndexOf('\r'));
      run = lastBreak === -1 ? run + chunk.length : chunk.length - lastBreak - 1;
      if (run > limit) {
        controller.error(new ProtocolError(`SSE line longer than the ${limit}-byte limit (maxMessageBytes)`));
        return;
      }
      controller.enqueue(chunk);
    },
  });
}

/** Async iteration over a ReadableStream that releases it when the loop exits early. */
export async function* iterate<T>(stream: ReadableStream<T>): AsyncGenerator<T> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
