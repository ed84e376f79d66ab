/**
 * CORS for the test servers, so a page on another origin (the Chromium tests)
 * can speak MCP to them. Without `Expose-Headers: mcp-session-id` a browser
 * client cannot read its session id; without `Allow-Headers` the preflight of
 * every MCP POST fails (shared/TOOLCHAIN.md, step 4, measured in Chromium).
 */

/** Request headers an MCP client sends (2025-11-25 and 2026-07-28 transports). */
export const ALLOWED_HEADERS = [
  'content-type',
  'accept',
  'authorization',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
  'mcp-method',
  'mcp-name',
];

/** Response headers a client must be able to read. */
export const EXPOSED_HEADERS = ['mcp-session-id', 'mcp-protocol-version', 'www-authenticate', 'retry-after'];

/** Paths under this prefix are served without any CORS header, so a browser test can watch CORS fail. */
export const NO_CORS_PREFIX = '/no-cors';

/**
 * The CORS headers for a request: the origin echoed, our allow list plus
 * whatever the preflight asks for (the `Mcp-Param-*` headers of 2026-07-28 are
 * open-ended, so they cannot be listed up front).
 * @param {(name: string) => string | null | undefined} header reads a request header
 * @returns {Record<string, string>}
 */
export function corsHeaders(header) {
  const requested = (header('access-control-request-headers') ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  const allowed = [...new Set([...ALLOWED_HEADERS, ...requested])];
  return {
    'access-control-allow-origin': header('origin') ?? '*',
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-allow-headers': allowed.join(', '),
    'access-control-expose-headers': EXPOSED_HEADERS.join(', '),
    vary: 'Origin, Access-Control-Request-Headers',
  };
}

/**
 * Wraps a web handler with CORS: preflights answered 204 here, every other
 * response given the allow/expose headers. A path under {@link NO_CORS_PREFIX}
 * reaches the handler with the prefix removed and gets no CORS headers at all.
 * @param {(request: Request) => Promise<Response>} handler
 * @returns {(request: Request) => Promise<Response>}
 */
export function withCors(handler) {
  return async (request) => {
    const url = new URL(request.url);
    if (url.pathname === NO_CORS_PREFIX || url.pathname.startsWith(`${NO_CORS_PREFIX}/`)) {
      url.pathname = url.pathname.slice(NO_CORS_PREFIX.length) || '/';
      return handler(new Request(url, request));
    }
    const headers = corsHeaders((name) => request.headers.get(name));
    if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers });
    const response = await handler(request);
    // Response.error() is the reset marker; it has no headers to add to.
    if (response.type === 'error') return response;
    const merged = new Headers(response.headers);
    for (const [name, value] of Object.entries(headers)) merged.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers: merged });
  };
}
