import { HttpError } from '../../errors/http-error.js';
import { backoffDelay, DEFAULT_BASE_DELAY, DEFAULT_MAX_DELAY, sleep } from './backoff.js';
import type { HttpRequester } from './http-requester.js';
import { newCursor, type SseMessages } from './sse-messages.js';

/** What the stream needs from its transport. */
export interface StandaloneStreamContext {
  readonly http: HttpRequester;
  readonly sse: SseMessages;
  readonly headers: () => Headers;
  /** Ends the stream: the session was forgotten or the transport closed. */
  readonly signal: AbortSignal;
  readonly onSessionGone: () => void;
  /** Tells the client about a problem (`onError`). */
  readonly report: (problem: unknown) => void;
  /** The first GET, already sent by the transport while this module loaded. */
  readonly first?: Promise<Response>;
}

/** Consecutive failures after which the stream is given up for this session. */
const MAX_FAILURES = 8;
/** Wait before reopening a stream the server closed cleanly, unless it sent `retry:`. */
const IDLE_REOPEN_DELAY = 1000;

/**
 * Runs the standalone GET stream of a session (2025-03-26 on) until `signal`
 * aborts: where the server sends requests and notifications outside any POST.
 * 405 means the server offers none. A dropped stream is reopened with jittered
 * backoff (and `Last-Event-ID`); a clean idle close is no error. Loaded on
 * demand: a client that takes no server-initiated messages never opens one.
 */
export async function runStandaloneStream(context: StandaloneStreamContext): Promise<void> {
  const { http, sse, signal } = context;
  const cursor = newCursor();
  let failures = 0;
  let first = context.first;
  while (!signal.aborted) {
    try {
      const headers = context.headers();
      if (cursor.lastEventId !== undefined) headers.set('last-event-id', cursor.lastEventId);
      const response = await (first ?? http.send({ method: 'GET', headers, signal, idempotent: true }));
      first = undefined;
      if (response.status === 405) return;
      if (response.status === 404) return context.onSessionGone();
      if (!response.ok || !response.body) throw await http.failure(response);
      failures = 0;
      const broken = await sse.read(response.body, cursor);
      if (broken && !signal.aborted) throw broken;
      await sleep(cursor.retryMs ?? IDLE_REOPEN_DELAY, signal);
    } catch (error) {
      first = undefined;
      if (signal.aborted) return;
      failures++;
      if (failures >= MAX_FAILURES || (error instanceof HttpError && error.status < 500 && error.status !== 429)) {
        context.report(error);
        return;
      }
      const delay = cursor.retryMs ?? backoffDelay(failures, DEFAULT_BASE_DELAY, DEFAULT_MAX_DELAY);
      await sleep(delay, signal).catch(() => {});
    }
  }
}
