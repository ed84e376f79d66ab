/*
 * How HTTP recovers when the happy path breaks: the retry policy after a failed
 * attempt (retry-policy.ts), redirects that keep credentials on the endpoint's
 * origin (redirects.ts), resuming a POST's broken SSE stream
 * (resume-post-stream.ts), and the standalone GET stream, reopened whenever it
 * drops (standalone-stream.ts). Loaded on demand (on-demand.ts): this file is
 * the import() target, and what it exports is the module's whole surface.
 */
export { followRedirects, type SentRequest } from './redirects.js';
export { type BrokenPostStream, resumePostStream } from './resume-post-stream.js';
export { afterFailedAttempt, type FailedAttempt } from './retry-policy.js';
export { runStandaloneStream, type StandaloneStreamContext } from './standalone-stream.js';
