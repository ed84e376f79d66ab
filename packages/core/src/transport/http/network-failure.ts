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

export function provesNotDelivered(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== 'object') return false;
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && NOT_DELIVERED_CODES.has(code)) return true;
    if (typeof message === 'string' && NOT_DELIVERED_TEXT.test(message)) return true;
    current = cause;
  }
  return false;
}
