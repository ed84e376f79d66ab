/*
 * What HTTP does beyond the happy path: the retry policy after a failed attempt
 * (retry-policy.ts), redirects that keep credentials on the endpoint's origin
 * (redirects.ts), resuming a POST's broken SSE stream (resume-post-stream.ts),
 * the standalone GET stream (standalone-stream.ts), the 2024-11-05 HTTP+SSE
 * fallback (legacy-sse-session.ts) and the error for a JSON body that answers
 * nothing (unanswered.ts), and the cap on resends an AuthProvider asks for
 * (auth-resend.ts). Loaded on demand (on-demand.ts): this file is the
 * import() target, and what it exports is the module's whole surface.
 */
export { beforeAuthResend } from './auth-resend.js';
export { LegacySseSession } from './legacy-sse-session.js';
export { followRedirects, type SentRequest } from './redirects.js';
export { type BrokenPostStream, resumePostStream } from './resume-post-stream.js';
export { afterFailedAttempt, type FailedAttempt } from './retry-policy.js';
export { runStandaloneStream, type StandaloneStreamContext } from './standalone-stream.js';
export { unansweredError } from './unanswered.js';
