/**
 * The floor over HTTP: plain `fetch` and `JSON.parse`, the same JSON-RPC
 * messages a client sends and nothing else (no validation, no GET stream, no
 * retries). Legacy era: `initialize` + `notifications/initialized` (two round
 * trips), then calls in the session. 2026-07-28: one `server/discover`, then
 * `_meta`-enveloped calls with `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name`.
 */

const LEGACY_VERSION = '2025-11-25';
const MODERN_VERSION = '2026-07-28';
const CLIENT_INFO = { name: 'bench', version: '1.0.0' };

/** @param {{ url: string, mode: string }} target */
export function floorHttp(target) {
  const modern = target.mode === 'modern';
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
  };
  /** @type {string | undefined} */
  let session;
  /** @type {string | undefined} */
  let version;
  let nextId = 1;

  /**
   * @param {string} method
   * @param {object} [params]
   * @param {Record<string, string>} [extra]
   */
  async function request(method, params, extra) {
    const id = nextId++;
    const response = await post({ jsonrpc: '2.0', id, method, params }, extra);
    const id2 = response.headers.get('mcp-session-id');
    if (id2 !== null) session = id2;
    const text = await response.text();
    // One SSE event (`data: {…}`) on the stateful server, a JSON body elsewhere.
    const sse = response.headers.get('content-type')?.startsWith('text/event-stream');
    const start = sse ? text.indexOf('data: ') + 6 : 0;
    const message = JSON.parse(sse ? text.slice(start, text.indexOf('\n', start)) : text);
    if (message.error) throw new Error(`${method}: ${message.error.message}`);
    return message.result;
  }

  /**
   * @param {object} message
   * @param {Record<string, string>} [extra]
   */
  function post(message, extra) {
    /** @type {Record<string, string>} */
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...extra };
    if (session !== undefined) headers['mcp-session-id'] = session;
    if (version !== undefined) headers['mcp-protocol-version'] = version;
    return fetch(target.url, { method: 'POST', headers, body: JSON.stringify(message) });
  }

  return {
    async connect() {
      if (modern) {
        version = MODERN_VERSION;
        const headers = { 'mcp-method': 'server/discover' };
        await request('server/discover', { _meta: envelope }, headers);
        return;
      }
      const params = { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: CLIENT_INFO };
      version = (await request('initialize', params)).protocolVersion;
      const answer = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
      await answer.body?.cancel();
    },
    /**
     * @param {string} name
     * @param {object} args
     */
    async call(name, args) {
      if (!modern) return (await request('tools/call', { name, arguments: args })).content;
      const headers = { 'mcp-method': 'tools/call', 'mcp-name': name };
      return (await request('tools/call', { name, arguments: args, _meta: envelope }, headers)).content;
    },
    async close() {
      if (session === undefined) return;
      const headers = { 'mcp-session-id': session, ...(version && { 'mcp-protocol-version': version }) };
      const response = await fetch(target.url, { method: 'DELETE', headers }).catch(() => undefined);
      await response?.body?.cancel();
    },
    era: () => version,
  };
}
