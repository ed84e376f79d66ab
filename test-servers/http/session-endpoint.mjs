import { MemoryEventStore } from './event-store.mjs';

/**
 * A server of either official SDK.
 * @typedef {import('@modelcontextprotocol/sdk/server/index.js').Server | import('@modelcontextprotocol/server').Server} McpServerLike
 */

/**
 * Either SDK's web-standard Streamable HTTP server transport class.
 * @typedef {typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js').WebStandardStreamableHTTPServerTransport
 *   | typeof import('@modelcontextprotocol/server').WebStandardStreamableHTTPServerTransport} TransportClass
 */

/**
 * @typedef {object} EndpointOptions
 * @property {TransportClass} Transport the SDK's web-standard server transport class
 * @property {(url: URL) => McpServerLike} createServer a fresh server for one session (or one stateless request)
 * @property {boolean} [sessions] stateful (Mcp-Session-Id) when true; default true
 * @property {boolean} [resumable] give each session an event store (Last-Event-ID replay)
 * @property {boolean} [jsonResponse] answer POSTs with application/json instead of SSE
 * @property {number} [retryMs] the SSE `retry:` hint the priming event carries (resumable only)
 * @property {(message: object) => void} [observe] sees every message a server receives, before it runs
 */

/**
 * @typedef {object} SessionEndpoint
 * @property {(request: Request) => Promise<Response>} handle serves one HTTP request
 * @property {(sessionId: string) => Promise<boolean>} expire forgets a session (its next request gets 404)
 * @property {() => Promise<void>} close closes every session
 * @property {() => number} size how many sessions are open
 */

/**
 * One Streamable HTTP endpoint on an official SDK's web-standard transport
 * (2025-11-25, basic/transports § Streamable HTTP). Stateful endpoints make a
 * server and a transport per session at `initialize` and route on
 * `Mcp-Session-Id`; stateless ones make both per request and refuse GET and
 * DELETE with 405, as the spec allows a server without a standalone stream.
 * @param {EndpointOptions} options
 * @returns {SessionEndpoint}
 */
export function createSessionEndpoint(options) {
  const { sessions: stateful = true } = options;
  /** @type {Map<string, { transport: InstanceType<TransportClass>, server: McpServerLike }>} */
  const sessions = new Map();

  /** @param {URL} url */
  async function open(url) {
    const transport = new options.Transport({
      ...(stateful && { sessionIdGenerator: () => crypto.randomUUID() }),
      enableJsonResponse: options.jsonResponse ?? false,
      ...(options.resumable && { eventStore: new MemoryEventStore(), retryInterval: options.retryMs ?? 100 }),
    });
    const server = options.createServer(url);
    await server.connect(transport);
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      options.observe?.(message);
      deliver?.(message, extra);
    };
    return { transport, server };
  }

  /** @param {Request} request */
  async function handleStateless(request) {
    if (request.method !== 'POST') return jsonRpcError(405, -32000, 'Method not allowed.', { allow: 'POST' });
    const { transport, server } = await open(new URL(request.url));
    const response = await transport.handleRequest(request);
    // JSON mode: the body is complete once the Response exists.
    void server.close();
    return response;
  }

  /** @param {Request} request */
  async function handleStateful(request) {
    if (!['GET', 'POST', 'DELETE'].includes(request.method)) {
      return jsonRpcError(405, -32000, 'Method not allowed.', { allow: 'GET, POST, DELETE' });
    }
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const session = sessions.get(sessionId);
      // 2025-11-25 § Session Management: an unknown or ended session is answered 404.
      if (session === undefined) return jsonRpcError(404, -32001, 'Session not found');
      return session.transport.handleRequest(request);
    }
    if (request.method !== 'POST') return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    const { transport, server } = await open(new URL(request.url));
    const response = await transport.handleRequest(request);
    const id = transport.sessionId;
    if (id === undefined) {
      void server.close();
      return response;
    }
    const session = { transport, server };
    sessions.set(id, session);
    // DELETE (or the server closing) ends the session; a later request gets 404.
    const previous = server.onclose;
    server.onclose = () => {
      previous?.();
      if (sessions.get(id) === session) sessions.delete(id);
    };
    return response;
  }

  return {
    handle: stateful ? handleStateful : handleStateless,
    async expire(sessionId) {
      const session = sessions.get(sessionId);
      sessions.delete(sessionId);
      await session?.server.close();
      return session !== undefined;
    },
    async close() {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(all.map((session) => session.server.close()));
    },
    size: () => sessions.size,
  };
}

/**
 * A JSON-RPC error response with no id, as the SDK transports send for
 * transport-level failures.
 * @param {number} status
 * @param {number} code
 * @param {string} message
 * @param {Record<string, string>} [headers]
 * @returns {Response}
 */
export function jsonRpcError(status, code, message, headers = {}) {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}
