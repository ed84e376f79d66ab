/**
 * The MCP Apps sandbox proxy page (`@mcp/core`'s `dist/apps/sandbox-proxy.html`)
 * on an origin apart from the app's: the view runs inside it, where it can
 * reach neither this page nor its tokens. A production build names it with
 * `VITE_MCP_SANDBOX_URL`; `vite dev` and `vite preview` serve it on the app's
 * port + 1 (sandbox-origin.ts), which is what it falls back to.
 */
export function sandboxUrl(): string {
  const configured = import.meta.env.VITE_MCP_SANDBOX_URL;
  if (configured) return configured;
  const port = Number(location.port || (location.protocol === 'https:' ? 443 : 80)) + 1;
  return `${location.protocol}//${location.hostname}:${port}/sandbox-proxy.html`;
}
