import { AuthError } from '../errors/auth-error.js';

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Whether `url` names this machine (loopback), where plain http is acceptable (RFC 8252 §8.3). */
export function isLoopback(url: URL): boolean {
  return LOOPBACK.test(url.hostname) || url.hostname.toLowerCase().endsWith('.localhost');
}

/**
 * Refuses an OAuth endpoint that is not https (MCP "Security Best Practices":
 * no `javascript:`, `data:`, `file:`…). Plain http is allowed on loopback, and for
 * an MCP server the user reaches over plain http anyway (development set-ups).
 */
export function assertSecureEndpoint(endpoint: string, serverUrl: URL, what: string): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new AuthError('insecure_endpoint', `the ${what} is not a valid URL`);
  }
  const plainAllowed = isLoopback(url) || serverUrl.protocol === 'http:';
  if (url.protocol === 'https:' || (url.protocol === 'http:' && plainAllowed)) return url;
  throw new AuthError('insecure_endpoint', `refusing the ${what} ${url.protocol}//${url.host}: https is required`);
}

/** A redirect answer (or a browser's opaque one): credentials-bearing requests never follow it. */
export function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}
