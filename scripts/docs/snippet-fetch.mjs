// Loaded with `--import` into a snippet that scripts/docs/check-snippets.mjs runs against test-servers/http.
// The docs write https://mcp.example.com/mcp and the like; this sends every request for example.com, or a
// subdomain of it, to the test server at SNIPPET_MCP_URL instead (its query kept), so the code runs as printed.
const target = process.env.SNIPPET_MCP_URL;
if (!target) throw new Error('snippet-fetch.mjs: SNIPPET_MCP_URL is not set');
const originalFetch = globalThis.fetch;

/** @param {string | URL} url */
function redirected(url) {
  const parsed = new URL(url);
  if (parsed.hostname !== 'example.com' && !parsed.hostname.endsWith('.example.com')) return undefined;
  const to = new URL(target);
  to.search = parsed.search;
  return to;
}

globalThis.fetch = (input, init) => {
  if (input instanceof Request) {
    const to = redirected(input.url);
    return originalFetch(to ? new Request(to, input) : input, init);
  }
  return originalFetch(redirected(input) ?? input, init);
};
