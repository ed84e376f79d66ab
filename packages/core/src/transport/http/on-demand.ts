import { lazy } from '../../util/lazy.js';

/*
 * HTTP's two on-demand modules, each loaded the first time it is needed and
 * shared after that (a load that fails is tried again next time). A bundler
 * splits each into a chunk of its own, so a healthy JSON exchange downloads
 * neither.
 */

/**
 * Reading SSE bodies (event-stream/, with eventsource-parser): loaded on the
 * first `text/event-stream` answer. A server that answers JSON, as 2026-07-28
 * servers and stateless ones commonly do, never costs a program the parser.
 */
export const eventStream = lazy(() => import('./event-stream/index.js'));

/**
 * What HTTP does beyond the happy path (resilience/): the retry policy after a
 * failed attempt, redirects, resuming a broken POST stream, the standalone GET
 * stream, the HTTP+SSE fallback and a JSON body that answers nothing. It reads
 * SSE itself, so it loads event-stream/ with it.
 */
export const resilience = lazy(() => import('./resilience/index.js'));
