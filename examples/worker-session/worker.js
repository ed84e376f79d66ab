// A Cloudflare Worker that calls MCP tools for its callers and keeps one MCP
// session across invocations, with the session snapshot in KV or in a Durable Object.
//
//   GET /call?tool=echo&text=hi      snapshot in KV (binding MCP_SESSIONS)
//   GET /do/call?tool=echo&text=hi   snapshot in a Durable Object (binding MCP_SESSION_OBJECTS)
//
// Every query parameter but `tool` is passed as a string argument. The server's
// URL is the MCP_URL variable.
import { durableSnapshotStore, kvSnapshotStore, withMcpSession } from './mcp-session.js';

/**
 * Calls the tool named in the request's query and answers with its text, plus
 * the session id the call used (to make the session visible in this example).
 * @param {Request} request
 * @param {string} mcpUrl
 * @param {import('./mcp-session.js').SnapshotStore} store
 */
async function callTool(request, mcpUrl, store) {
  const query = new URL(request.url).searchParams;
  const tool = query.get('tool');
  if (!tool) return Response.json({ error: 'missing ?tool=' }, { status: 400 });
  const args = Object.fromEntries([...query].filter(([name]) => name !== 'tool'));
  try {
    return await withMcpSession(mcpUrl, store, async (client) => {
      const result = await client.callTool(tool, args);
      return Response.json({ text: result.text, isError: result.isError, sessionId: client.session?.sessionId });
    });
  } catch (error) {
    return Response.json({ error: String(error) }, { status: 502 });
  }
}

/**
 * One MCP session per object. Requests are run one at a time, so even
 * concurrent first requests share a single handshake (with KV, two invocations
 * that both find no snapshot would each open a session).
 */
export class McpSessionObject {
  #queue = Promise.resolve();

  /** @param {DurableObjectState} ctx @param {{ MCP_URL: string }} env */
  constructor(ctx, env) {
    this.ctx = ctx;
    this.env = env;
  }

  /** @param {Request} request */
  fetch(request) {
    const run = this.#queue.then(() => callTool(request, this.env.MCP_URL, durableSnapshotStore(this.ctx.storage)));
    this.#queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }
}

export default {
  /** @param {Request} request @param {{ MCP_URL: string, MCP_SESSIONS: KVNamespace, MCP_SESSION_OBJECTS: DurableObjectNamespace }} env */
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname === '/call') return callTool(request, env.MCP_URL, kvSnapshotStore(env.MCP_SESSIONS, env.MCP_URL));
    if (pathname === '/do/call') {
      // A real agent names the object per user or conversation; one is enough here.
      const id = env.MCP_SESSION_OBJECTS.idFromName('default');
      return env.MCP_SESSION_OBJECTS.get(id).fetch(request);
    }
    return new Response('not found', { status: 404 });
  },
};
