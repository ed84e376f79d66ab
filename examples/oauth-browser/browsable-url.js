/**
 * Only web URLs are shown to the user: https, or http on this machine
 * (development). Never `javascript:`, `data:`, `file:` (MCP 2025-11-25
 * "Security Best Practices", authorization URLs).
 * @param {URL} url
 */
export function assertBrowsable(url) {
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) return;
  throw new Error(`refusing to open a ${url.protocol} authorization URL: https is required`);
}
