// A Cloudflare Worker that calls MCP tools for its callers and keeps one MCP
// session across invocations, with the session snapshot in KV or in a Durable Object.
//
//   GET /call?tool=echo&text=hi      snapshot in KV (binding MCP_SESSIONS)
//   GET /do/call?tool=echo&text=hi   snapshot in a Durable Object (binding MCP_SESSION_OBJECTS)
//
// Every query parameter but `tool` is passed as a string argument. The server's
// URL is the MCP_URL variable.
import { callTool } from './call-tool.js';
import { kvSnapshotStore } from './mcp-session.js';

export { McpSessionObject } from './session-object.js';

export default {
  /** @param {Request} request @param {{ MCP_URL: string, MCP_SESSIONS: KVNamespace, MCP_SESSION_OBJECTS: DurableObjectNamespace }} env */
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname === '/call') return callTool(request, env.MCP_URL, kvSnapshotStore(env.MCP_SESSIONS, env.MCP_URL));
    if (pathname === '/do/call') {
      // One object is enough here. A real agent names one per user or conversation, and takes that name from
      // a verified credential, never from the request's path, query or body (see examples/worker-agent).
      const id = env.MCP_SESSION_OBJECTS.idFromName('default');
      return env.MCP_SESSION_OBJECTS.get(id).fetch(request);
    }
    return new Response('not found', { status: 404 });
  },
};
