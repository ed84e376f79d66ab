import type { SendOptions } from '../../transport/transport.js';

/**
 * Requests that change nothing on the server, so repeating one is harmless. A
 * retry policy may resend these after any network failure, even where the
 * runtime cannot prove the first attempt never arrived. `tools/call` is not here:
 * a tool may act, and running it twice could do the act twice.
 */
const SAFE_METHODS: ReadonlySet<string> = new Set([
  'initialize',
  'server/discover',
  'ping',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
]);

/** Whether repeating `method` is harmless (see SAFE_METHODS). */
export const isSafeToRepeat = (method: string): boolean => SAFE_METHODS.has(method);

/** Send options of a request with no signal and no headers, shared rather than built per call. */
const REPEATABLE: SendOptions = Object.freeze({ idempotent: true });
const ONCE: SendOptions = Object.freeze({ idempotent: false });

/** What the transport is told with a request: the signal that ends it, its headers, whether it may be repeated. */
export function sendOptionsFor(
  method: string,
  signal: AbortSignal | undefined,
  headers: Readonly<Record<string, string>> | undefined,
): SendOptions {
  const idempotent = isSafeToRepeat(method);
  if (!signal && !headers) return idempotent ? REPEATABLE : ONCE;
  return { ...(signal && { signal }), ...(headers && { headers }), idempotent };
}
