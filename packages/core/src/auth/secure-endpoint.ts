import { AuthError } from '../errors/auth-error.js';
import { isLoopback } from '../util/loopback.js';

/**
 * Refuses a URL OAuth is about to fetch or open unless it is https (MCP "Security
 * Best Practices": no `javascript:`, `data:`, `file:`, and no tokens or secrets in
 * clear). Plain http only while the MCP server itself is on this machine
 * (development set-ups); and a server elsewhere may not point the client at this
 * machine (server-side request forgery against local services).
 */
export function assertSecureEndpoint(endpoint: string | URL, serverUrl: URL, what: string): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new AuthError('insecure_endpoint', `the ${what} is not a valid URL`);
  }
  const local = isLoopback(serverUrl);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) {
    throw new AuthError(
      'insecure_endpoint',
      `refusing the ${what} ${url.protocol}//${url.host}: https is required${url.protocol === 'http:' ? ' (plain http only for an MCP server on loopback)' : ''}`,
    );
  }
  if (!local && isLoopback(url)) {
    throw new AuthError(
      'insecure_endpoint',
      `refusing the ${what} ${url.origin}: the MCP server at ${serverUrl.origin} may not point the client at this machine`,
    );
  }
  return url;
}

/** A redirect answer (or a browser's opaque one): OAuth requests never follow it. */
export function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}
