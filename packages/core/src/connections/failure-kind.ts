import { AuthError } from '../errors/auth-error.js';
import { ClientClosedError } from '../errors/client-closed-error.js';
import { HttpError } from '../errors/http-error.js';
import { NetworkError } from '../errors/network-error.js';
import { SessionExpiredError } from '../errors/session-expired-error.js';
import { TransportError } from '../errors/transport-error.js';

/**
 * What a failure means for a connection:
 * - `drop`: the server or the way to it went away (network, a closed stream, a
 *   timeout, 5xx, 404, 408, 429): reconnect within the budget;
 * - `authorize`: only the user can fix it by signing in;
 * - `fatal`: asking again gives the same answer (an unsupported version, a
 *   refusal, a malformed server): fail at once.
 */
export type FailureKind = 'drop' | 'authorize' | 'fatal';

/** Authorization failures that a new sign-in by the user can fix. */
const NEEDS_USER = new Set<string>([
  'no_redirect_handler',
  'authorization_denied',
  'popup_blocked',
  'authorization_abandoned',
]);

/** HTTP statuses worth asking again: gone for now (404: a restarted server), timeout, too many requests. */
const RETRYABLE_STATUS = new Set([404, 408, 429]);

/** Sorts `error` into what the connection does next (see {@link FailureKind}). */
export function failureKind(error: unknown): FailureKind {
  if (error instanceof AuthError) {
    // Another tab or instance signed in for this server: the next attempt uses the tokens it stored.
    if (error.code === 'authorized_elsewhere') return 'drop';
    return NEEDS_USER.has(error.code) ? 'authorize' : 'fatal';
  }
  if (error instanceof HttpError) {
    if (error.status === 401) return 'authorize';
    return error.status >= 500 || RETRYABLE_STATUS.has(error.status) ? 'drop' : 'fatal';
  }
  if (
    error instanceof NetworkError ||
    error instanceof TransportError ||
    error instanceof ClientClosedError ||
    error instanceof SessionExpiredError
  ) {
    return 'drop';
  }
  return error instanceof DOMException && error.name === 'TimeoutError' ? 'drop' : 'fatal';
}
