import { CorsError } from '../../../errors/cors-error.js';
import { NetworkError } from '../../../errors/network-error.js';

/**
 * Failures that prove the request never left: the connection was refused, the
 * name did not resolve, the dial itself failed. Only these make a retry of a
 * request with side effects safe. A reset while reading the answer proves
 * nothing — the server may already have run the tool.
 */
const NOT_DELIVERED_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT', // undici: the TCP/TLS dial timed out
  'ConnectionRefused', // Bun
  'FailedToOpenSocket', // Bun
]);

/** Deno and others say it only in the message. */
const NOT_DELIVERED_TEXT =
  /connection refused|tcp connect error|failed to lookup address|name or service not known|dns error|getaddrinfo/i;

function provesNotDelivered(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== 'object') return false;
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && NOT_DELIVERED_CODES.has(code)) return true;
    if (typeof message === 'string' && NOT_DELIVERED_TEXT.test(message)) return true;
    current = cause;
  }
  return false;
}

/**
 * The error for a `fetch` to `url` that threw: whether it proves the request
 * never left, or, in a browser, looks like a CORS refusal. Loaded on demand,
 * only once a fetch has failed.
 */
export function networkFailure(error: unknown, url: string): NetworkError {
  const options = { cause: error };
  if (provesNotDelivered(error)) {
    return new NetworkError(`could not connect to ${url}: ${describe(error)}`, url, 'no', options);
  }
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
  const inBrowser = typeof (globalThis as { document?: unknown }).document !== 'undefined';
  if (inBrowser && origin && origin !== new URL(url).origin && error instanceof TypeError) {
    return new CorsError(url, origin, options);
  }
  return new NetworkError(`request to ${url} failed: ${describe(error)}`, url, 'unknown', options);
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
