import { HttpError } from '../../../errors/http-error.js';
import { LimitError } from '../../../errors/limit-error.js';
import { TransportError } from '../../../errors/transport-error.js';
import { backoffDelay, sleep } from '../../../util/backoff.js';
import { linkedSignal } from '../../../util/linked-signal.js';
import { timerDelay } from '../../../util/timers.js';
import { httpError } from '../error-response.js';
import { type EventStreamTarget, readMessages, type SseCursor } from '../event-stream/index.js';
import type { Requester } from '../http-request.js';
import type { StreamReconnectOptions } from '../options.js';
import { DEFAULT_BASE_DELAY, DEFAULT_MAX_DELAY, MAX_SSE_RETRY } from './backoff.js';

/** What the stream needs from its transport. */
export interface StandaloneStreamContext {
  readonly http: Requester;
  readonly sse: EventStreamTarget;
  readonly headers: () => Headers;
  /** Ends the stream: the session was forgotten or the transport closed. */
  readonly signal: AbortSignal;
  readonly onSessionGone: () => void;
  /** Tells the client about a problem (`onError`). */
  readonly report: (problem: unknown) => void;
  /** The first GET, already sent by the transport while this module loaded. */
  readonly first?: Promise<Response>;
  readonly reconnect?: StreamReconnectOptions | undefined;
}

/** StreamReconnectOptions.minDelay: a stream is reopened no sooner than this after it ended. */
const MIN_REOPEN_DELAY = 1000;
/** StreamReconnectOptions.maxFailures: failures in a row after which the stream is given up for this session. */
const MAX_FAILURES = 8;
/** A stream that ends without an event sooner than this failed; one that idled longer was closed (by a proxy, say). */
const SHORTEST_IDLE_STREAM = 10_000;

/**
 * Runs the standalone GET stream of a session (2025-03-26 on) until `signal`
 * aborts: where the server sends requests and notifications outside any POST.
 * 405 means the server offers none. A dropped stream is reopened with `Last-Event-ID`,
 * never sooner than `minDelay` whatever `retry:` says (it MUST be waited, 2025-11-25
 * transports, "Resumability and Redelivery"; a longer wait is allowed). A clean close is no error, but one
 * without a single event soon after the opening is: failures wait longer each
 * time, and after `maxFailures` in a row the stream ends with a LimitError
 * (`streamReconnect.maxFailures`) whose cause is the last failure. Loaded on
 * demand: a client that takes no server-initiated messages never opens one.
 */
export async function runStandaloneStream(context: StandaloneStreamContext): Promise<void> {
  const { http, sse, signal } = context;
  // NaN is no floor the app meant: the default stands, so a server's `retry: 0` cannot make the stream spin.
  const minDelay = timerDelay(context.reconnect?.minDelay, { fallback: MIN_REOPEN_DELAY });
  const maxFailures = context.reconnect?.maxFailures ?? MAX_FAILURES;
  const cursor: SseCursor = { answered: false };
  /** The wait before the next opening: the server's `retry:`, clamped. */
  const pause = () => timerDelay(Math.min(cursor.retryMs ?? 0, MAX_SSE_RETRY), { min: minDelay });
  let failures = 0;
  let first = context.first;
  while (!signal.aborted) {
    // This opening's own signal (linked-signal.ts says why), let go when it ends.
    const opening = linkedSignal(signal);
    try {
      const headers = context.headers();
      if (cursor.lastEventId !== undefined) headers.set('last-event-id', cursor.lastEventId);
      const response = await (first ?? http.send({ method: 'GET', headers, signal: opening.signal, idempotent: true }));
      first = undefined;
      if (response.status === 405) return;
      if (response.status === 404) return context.onSessionGone();
      if (!response.ok || !response.body) throw await httpError(response, http.url);
      const opened = Date.now();
      let events = 0;
      const broken = await readMessages(response.body, sse, cursor, undefined, () => {
        events++;
        failures = 0;
        return false;
      });
      if (broken && !signal.aborted) throw broken;
      if (events === 0 && Date.now() - opened < SHORTEST_IDLE_STREAM) {
        throw new TransportError(`the GET stream of ${http.url.href} ended without an event`);
      }
      await sleep(pause(), signal);
    } catch (error) {
      first = undefined;
      if (signal.aborted) return;
      // A refusal that asking again will not change (a 4xx but 429) ends the stream as it is.
      if (error instanceof HttpError && error.status < 500 && error.status !== 429) return context.report(error);
      if (++failures >= maxFailures) {
        const gaveUp = `the GET stream of ${http.url.href} failed ${failures} times in a row`;
        return context.report(new LimitError('streamReconnect.maxFailures', maxFailures, gaveUp, { cause: error }));
      }
      await sleep(pause() + backoffDelay(failures, DEFAULT_BASE_DELAY, DEFAULT_MAX_DELAY), signal).catch(() => {});
    } finally {
      opening.unlink();
    }
  }
}
