import { AuthError } from '../errors/auth-error.js';
import { isLoopback } from '../util/loopback.js';

/**
 * Only web URLs are shown to the user: https, or http on this machine
 * (development) — never `javascript:`, `data:` or `file:` (MCP 2025-11-25
 * security best practices, authorization URLs).
 */
export function assertBrowsable(url: URL): void {
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url))) return;
  throw new AuthError('insecure_endpoint', `refusing to open a ${url.protocol} authorization URL: https is required`);
}
