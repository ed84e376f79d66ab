import type { RequestId } from '../../protocol/jsonrpc.js';
import type { SseCursor } from './event-stream/index.js';
import { eventStream, recovery } from './on-demand.js';
import type { BrokenPostStream } from './recovery/index.js';

/** A POST's SSE answer: what reading it, and resuming it if it breaks, needs of the transport. */
export interface PostStream extends Omit<BrokenPostStream, 'cursor' | 'broken'> {
  /** Fails call `requestId` when its stream cannot complete. */
  readonly report: (problem: unknown, requestId: RequestId) => void;
}

/**
 * Reads a POST's SSE stream (`body`) until the response to `stream.requestId`
 * arrives. A stream that breaks or ends first is resumed (recovery/, loaded
 * then); a call that cannot complete fails alone, through `report`, unless its
 * signal already ended it. Never rejects.
 */
export async function readPostStream(body: ReadableStream<Uint8Array> | null, stream: PostStream): Promise<void> {
  const { requestId, signal } = stream;
  const cursor: SseCursor = { answered: false };
  // Resolves with what broke the stream, its module's failure to load included (the body is dropped then).
  const broken = body
    ? await eventStream().then(
        ({ readMessages }) => readMessages(body, stream.sse, cursor, requestId),
        (error: Error) =>
          body.cancel().then(
            () => error,
            () => error,
          ),
      )
    : undefined;
  if (cursor.answered || signal.aborted) return;
  try {
    const { resumePostStream } = await recovery();
    await resumePostStream({ ...stream, cursor, broken });
  } catch (error) {
    // An aborted call already has its answer.
    if (!signal.aborted) stream.report(error, requestId);
  }
}
