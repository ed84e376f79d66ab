import { WebStandardStreamableHTTPServerTransport as V1Transport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport as V2Transport,
} from '@modelcontextprotocol/server';
import { createV1Server } from '../reference/v1-server.mjs';
import { createV2Server } from '../reference/v2-server.mjs';
import { withCors } from './cors.mjs';
import { createLegacySseEndpoint } from './legacy-sse.mjs';
import { toNodeListener } from './node-adapter.mjs';
import { serverOptionsFrom } from './server-options.mjs';
import { createSessionEndpoint } from './session-endpoint.mjs';

/**
 * @typedef {object} ModesHandler
 * @property {(request: Request) => Promise<Response>} handler web-standard, CORS included
 * @property {() => Promise<void>} close closes every session
 */

/**
 * The reference servers over Streamable HTTP, one mode per path (all with
 * CORS; the same paths under `/no-cors/` without):
 *
 * - `/stateful`: v1, sessions, SSE responses, standalone GET stream
 * - `/stateless`: v1, no sessions, `application/json` responses, GET/DELETE 405
 * - `/resumable`: v1, sessions, SSE with event ids; GET with `Last-Event-ID` replays
 * - `/v2`: v2 SDK; 2026-07-28 requests per request, 2025 traffic in sessions
 *
 * `?profile=minimal&pageSize=N` on the URL picks the reference server's options.
 * @returns {ModesHandler}
 */
export function createModesHandler() {
  const v1 = (/** @type {URL} */ url) => createV1Server(serverOptionsFrom(url));
  const stateful = createSessionEndpoint({ Transport: V1Transport, createServer: v1 });
  const stateless = createSessionEndpoint({
    Transport: V1Transport,
    createServer: v1,
    sessions: false,
    jsonResponse: true,
  });
  const resumable = createSessionEndpoint({ Transport: V1Transport, createServer: v1, resumable: true });
  const v2Legacy = createSessionEndpoint({
    Transport: V2Transport,
    createServer: (url) => createV2Server(serverOptionsFrom(url)),
  });
  /** @type {Map<string, ReturnType<typeof createMcpHandler>>} */
  const v2Modern = new Map();

  /** @param {Request} request */
  async function v2(request) {
    // The v2 SDK's own routing predicate: 2025 traffic (initialize, sessions) to
    // the sessionful transport, requests carrying the 2026-07-28 envelope to createMcpHandler.
    if (await isLegacyRequest(request)) return v2Legacy.handle(request);
    const url = new URL(request.url);
    const key = url.search;
    let modern = v2Modern.get(key);
    if (modern === undefined) {
      const options = serverOptionsFrom(url);
      modern = createMcpHandler(() => createV2Server(options), { legacy: 'reject' });
      v2Modern.set(key, modern);
    }
    return modern.fetch(request);
  }

  /** @type {Record<string, (request: Request) => Promise<Response>>} */
  const routes = {
    '/stateful': stateful.handle,
    '/stateless': stateless.handle,
    '/resumable': resumable.handle,
    '/v2': v2,
    // For launchers that poll until the server is up (Playwright's webServer.url).
    '/health': async () => new Response('ok', { headers: { 'content-type': 'text/plain' } }),
  };

  return {
    handler: withCors(async (request) => {
      const route = routes[new URL(request.url).pathname];
      if (route === undefined) return new Response('Not found', { status: 404 });
      return route(request);
    }),
    async close() {
      await Promise.allSettled([
        stateful.close(),
        resumable.close(),
        v2Legacy.close(),
        ...[...v2Modern.values()].map((handler) => handler.close()),
      ]);
    },
  };
}

/**
 * The modes server as a `node:http` listener: the web handler, plus the
 * Node-only legacy HTTP+SSE transport on `/legacy-sse`.
 * @returns {{ listener: import('node:http').RequestListener, close: () => Promise<void> }}
 */
export function createModesListener() {
  const modes = createModesHandler();
  const legacy = createLegacySseEndpoint({
    path: '/legacy-sse',
    createServer: (url) => createV1Server(serverOptionsFrom(url)),
  });
  const web = toNodeListener(modes.handler);
  return {
    listener: (req, res) => {
      if (!legacy.handle(req, res)) web(req, res);
    },
    close: async () => {
      await Promise.allSettled([legacy.close(), modes.close()]);
    },
  };
}
