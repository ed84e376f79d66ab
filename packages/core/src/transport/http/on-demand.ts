import { lazy } from '../../util/lazy.js';

/*
 * HTTP's three on-demand modules, each a feature a healthy exchange with a
 * current server never uses, loaded the first time it is needed and shared
 * after that (a load that fails is tried again next time). A bundler splits
 * each into a chunk of its own.
 */

/**
 * Reading SSE bodies (event-stream/, with eventsource-parser): loaded on the
 * first `text/event-stream` answer. A server that answers JSON, as 2026-07-28
 * servers and stateless ones commonly do, never costs a program the parser.
 */
export const eventStream = lazy(() => import('./event-stream/index.js'));

/**
 * Recovery (recovery/): the retry policy after a failed attempt, redirects,
 * resuming a broken POST stream, and the standalone GET stream. It reads SSE
 * itself, so it loads event-stream/ with it.
 */
export const recovery = lazy(() => import('./recovery/index.js'));

/**
 * The deprecated HTTP+SSE transport of 2024-11-05 (legacy-sse-session.ts):
 * loaded only when a server refuses `initialize` and the transport falls back
 * to it. It reads SSE, so it loads event-stream/ with it.
 */
export const legacySse = lazy(() => import('./legacy-sse-session.js'));
