import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { corsHeaders, NO_CORS_PREFIX } from './cors.mjs';

/**
 * @typedef {object} LegacySseEndpoint
 * @property {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => boolean} handle
 *   serves the request if its path is the endpoint's; returns false otherwise
 * @property {() => Promise<void>} close ends every open stream
 */

/**
 * The deprecated HTTP+SSE transport (2024-11-05, basic/transports § HTTP with
 * SSE) on the v1 SDK's `SSEServerTransport`, which is Node-only (it writes to a
 * `ServerResponse`). `GET <path>` opens the stream and its first event,
 * `endpoint`, names `<path>/messages?sessionId=…`; POSTs there are answered
 * 202 and their responses arrive on the stream. A POST to `<path>` itself gets
 * 405, the 4xx that makes a 2025 client fall back to this transport
 * (2025-03-26, basic/transports § Backwards Compatibility).
 * @param {{ path: string, createServer: (url: URL) => import('./session-endpoint.mjs').McpServerLike }} options
 * @returns {LegacySseEndpoint}
 */
export function createLegacySseEndpoint({ path, createServer }) {
  /** @type {Map<string, SSEServerTransport>} */
  const streams = new Map();

  return {
    handle(req, res) {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const cors = !url.pathname.startsWith(`${NO_CORS_PREFIX}/`);
      const local = cors ? url.pathname : url.pathname.slice(NO_CORS_PREFIX.length);
      if (local !== path && local !== `${path}/messages`) return false;

      if (cors) {
        for (const [name, value] of Object.entries(corsHeaders((name) => headerOf(req, name))))
          res.setHeader(name, value);
      }
      if (cors && req.method === 'OPTIONS') {
        res.writeHead(204).end();
        return true;
      }

      if (local === path && req.method === 'GET') {
        const endpoint = `${cors ? '' : NO_CORS_PREFIX}${path}/messages`;
        const transport = new SSEServerTransport(endpoint, res);
        streams.set(transport.sessionId, transport);
        res.on('close', () => streams.delete(transport.sessionId));
        void createServer(url).connect(transport);
        return true;
      }
      if (local === `${path}/messages` && req.method === 'POST') {
        const transport = streams.get(url.searchParams.get('sessionId') ?? '');
        if (transport === undefined) res.writeHead(404, { 'content-type': 'text/plain' }).end('Unknown sessionId');
        else void transport.handlePostMessage(req, res).catch(() => {});
        return true;
      }
      res.writeHead(405, { allow: local === path ? 'GET' : 'POST', 'content-type': 'text/plain' });
      res.end(`${req.method} not allowed on the HTTP+SSE transport`);
      return true;
    },
    async close() {
      const open = [...streams.values()];
      streams.clear();
      await Promise.allSettled(open.map((transport) => transport.close()));
    },
  };
}

/**
 * @param {import('node:http').IncomingMessage} req
 * @param {string} name
 * @returns {string | undefined}
 */
function headerOf(req, name) {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
