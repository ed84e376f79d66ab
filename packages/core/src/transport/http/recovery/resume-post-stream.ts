import { LimitError } from '../../../errors/limit-error.js';
import { SessionExpiredError } from '../../../errors/session-expired-error.js';
import { TransportError } from '../../../errors/transport-error.js';
import type { RequestId } from '../../../protocol/jsonrpc.js';
import { sleep } from '../../../util/backoff.js';
import { discard } from '../../../util/read-body.js';
import { httpError } from '../error-response.js';
import { type EventStreamTarget, readMessages, type SseCursor } from '../event-stream/index.js';
import type { Requester } from '../http-request.js';
import { MAX_SSE_RETRY } from './backoff.js';

/** A POST's SSE stream that ended before its response, and what resuming it needs. */
export interface BrokenPostStream {
  readonly http: Requester;
  readonly sse: EventStreamTarget;
  /** Fresh request headers (session, version, auth) for each GET. */
  readonly headers: () => Headers;
  /** The session the POST went out in, which the stream belongs to. */
  readonly session: string | undefined;
  /** The server answered a resumption with 404: the session is gone. */
  readonly onSessionGone: () => void;
  readonly cursor: SseCursor;
  readonly requestId: RequestId;
  /** The call's signal: its end stops the resumption. */
  readonly signal: AbortSignal;
  /** What broke the stream; undefined when it just ended. */
  readonly broken: Error | undefined;
  /** Resumptions allowed before the call fails (StreamableHttpTransportOptions.maxResumeAttempts). */
  readonly maxAttempts: number | undefined;
}

/** Resumptions of one broken stream, unless the transport options say otherwise. */
const DEFAULT_MAX_RESUME_ATTEMPTS = 5;

/**
 * Resumes a POST's broken SSE stream with GET + `Last-Event-ID` (2025-03-26 on;
 * 2025-11-25 polling included, waiting out `retry:`) until the response
 * arrives, so the call completes without sending the request again. Rejects
 * when the stream cannot be resumed: no event id to resume from (TransportError),
 * the attempts are used up (LimitError, `maxResumeAttempts`), the GET fails, or
 * the session is gone (SessionExpiredError).
 * Loaded on demand: a stream that carries its response never needs it.
 */
export async function resumePostStream(stream: BrokenPostStream): Promise<void> {
  const { http, sse, cursor, requestId, signal } = stream;
  const maxAttempts = stream.maxAttempts ?? DEFAULT_MAX_RESUME_ATTEMPTS;
  let broken = stream.broken;
  for (let attempt = 0; !cursor.answered && !signal.aborted; attempt++) {
    const { lastEventId, retryMs } = cursor;
    const ended = `the response stream from ${http.url} ended before the response${broken ? `: ${broken.message}` : ''}`;
    if (lastEventId === undefined) throw new TransportError(ended, { cause: broken });
    if (attempt >= maxAttempts) {
      throw new LimitError('maxResumeAttempts', maxAttempts, `${ended}; resumed ${attempt} times`, { cause: broken });
    }
    if (retryMs !== undefined) await sleep(retryMs, signal, { max: MAX_SSE_RETRY });
    const headers = stream.headers();
    // Once the stream's session is gone (renewed, or expired), so is the stream;
    // its request may have run, so it is not sent again.
    const session = headers.get('mcp-session-id') ?? undefined;
    if (session !== stream.session) throw new SessionExpiredError(http.url.href, { delivered: true });
    headers.set('last-event-id', lastEventId);
    const resumed = await http.send({ method: 'GET', headers, signal, idempotent: true });
    // A 404 to a request with a session id: the session is gone (2025-03-26 on, Session Management).
    if (resumed.status === 404 && session !== undefined) {
      await discard(resumed);
      stream.onSessionGone();
      throw new SessionExpiredError(http.url.href, { delivered: true });
    }
    if (!resumed.ok) throw await httpError(resumed, http.url);
    broken = resumed.body ? await readMessages(resumed.body, sse, cursor, requestId) : undefined;
  }
}
