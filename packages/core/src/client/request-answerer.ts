import { lazy } from '../util/lazy.js';
import type { ClientOptions } from './options.js';

/** Answers one thing the server asks of the client; throws RpcError for what cannot be answered. */
export type AnswerRequest = (method: string, params: unknown, signal: AbortSignal) => Promise<Record<string, unknown>>;

/**
 * The answerer of server requests and 2026-07-28 input requests. `ping` is
 * answered at once; the handlers' validation (sampling, elicitation, roots) is
 * loaded on the first request that needs it, so a client whose servers never
 * ask for anything never downloads it.
 */
export function requestAnswerer(options: ClientOptions): AnswerRequest {
  const handlers = lazy(async () => new (await import('./server-requests.js')).ServerRequests(options));
  return async (method, params, signal) => (method === 'ping' ? {} : (await handlers()).handle(method, params, signal));
}
