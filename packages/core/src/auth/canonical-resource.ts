/**
 * The canonical URI of an MCP server (RFC 8707 §2; MCP 2025-06-18+ "Canonical
 * Server URI"): lower-case scheme and host (URL parsing does that), no fragment,
 * and no bare `/` path (`https://mcp.example.com`). Any other path is kept as is:
 * whether its trailing slash matters only the server knows.
 */
export function canonicalResource(url: string | URL): string {
  const parsed = new URL(url);
  const path = parsed.pathname === '/' ? '' : parsed.pathname;
  return `${parsed.protocol}//${parsed.host}${path}${parsed.search}`;
}

/**
 * Whether Protected Resource Metadata's `resource` may stand for `serverUrl`
 * (RFC 9728 §3.3, §7.3): the same origin, and the server's path equal to or under
 * the resource's path. Guards against metadata that names another server's tokens.
 */
export function resourceCovers(resource: string, serverUrl: string | URL): boolean {
  let named: URL;
  try {
    named = new URL(resource);
  } catch {
    return false;
  }
  const server = new URL(serverUrl);
  if (named.origin !== server.origin || named.hash) return false;
  const base = named.pathname.endsWith('/') ? named.pathname : `${named.pathname}/`;
  const path = server.pathname.endsWith('/') ? server.pathname : `${server.pathname}/`;
  return path.startsWith(base);
}
