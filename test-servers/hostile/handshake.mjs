/**
 * The well-behaved part of every hostile server: just enough MCP to get a
 * client connected in either era and to answer the healthy `echo` tool, so a
 * test can show that one bad answer cost nothing else. Speaks raw JSON-RPC
 * (no SDK), because the misbehaviours are things an SDK would never send.
 */

export const SERVER_INFO = Object.freeze({ name: 'mcp-hostile-server', version: '1.0.0' });
export const LEGACY_VERSION = '2025-11-25';
export const MODERN_VERSION = '2026-07-28';

/** The tools every hostile server lists: `echo` behaves, `hostile` misbehaves as the switch says. */
export const TOOLS = Object.freeze([
  {
    name: 'echo',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  },
  { name: 'hostile', inputSchema: { type: 'object' } },
]);

/** `{ jsonrpc, id, result }` as text. `resultJson` is JSON text (payloads may not survive a parse/stringify). */
export function resultLine(id, resultJson) {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultJson}}`;
}

export function errorLine(id, code, message) {
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });
}

export function textResult(text, era) {
  return { ...(era === 'modern' && { resultType: 'complete' }), content: [{ type: 'text', text }] };
}

/**
 * The healthy answer to `message` in `era` ('legacy' | 'modern'): JSON text
 * of a whole response, or undefined for a notification or response (nothing
 * to answer). A 2026-07-28 result carries `resultType` and `ttlMs: 0`, so no
 * client caches what the next test changes.
 */
export function healthyAnswer(message, era, tools = TOOLS) {
  const { id, method, params } = message;
  if (id === undefined || method === undefined) return undefined;
  const modern = era === 'modern';
  const complete = modern ? { resultType: 'complete', ttlMs: 0 } : {};
  switch (method) {
    case 'server/discover':
      if (!modern) return errorLine(id, -32601, 'Method not found: server/discover');
      return JSON.stringify({
        jsonrpc: '2.0',
        id,
        result: {
          ...complete,
          supportedVersions: [MODERN_VERSION],
          capabilities: { tools: {}, logging: {} },
          _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
        },
      });
    case 'initialize':
      if (modern) return errorLine(id, -32022, 'Unsupported protocol version');
      return JSON.stringify({
        jsonrpc: '2.0',
        id,
        result: { protocolVersion: LEGACY_VERSION, capabilities: { tools: {}, logging: {} }, serverInfo: SERVER_INFO },
      });
    case 'ping':
      return JSON.stringify({ jsonrpc: '2.0', id, result: {} });
    case 'logging/setLevel':
      return JSON.stringify({ jsonrpc: '2.0', id, result: {} });
    case 'tools/list':
      return JSON.stringify({ jsonrpc: '2.0', id, result: { ...complete, tools } });
    case 'tools/call': {
      if (params?.name !== 'echo') return errorLine(id, -32602, `Unknown tool: ${params?.name}`);
      const text = typeof params.arguments?.text === 'string' ? params.arguments.text : '';
      return JSON.stringify({ jsonrpc: '2.0', id, result: textResult(text, era) });
    }
    default:
      return errorLine(id, -32601, `Method not found: ${method}`);
  }
}

/** Whether `message` calls the `hostile` tool: the one request a switch misbehaves on. */
export function isHostileCall(message) {
  return message?.method === 'tools/call' && message.params?.name === 'hostile';
}
