import { WebStandardStreamableHTTPServerTransport as V1Transport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  createMcpHandler,
  InMemoryServerEventBus,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport as V2Transport,
} from '@modelcontextprotocol/server';
import { createModernHub } from '../reference/modern-hub.mjs';
import { createV1Server } from '../reference/v1-server.mjs';
import { createV2Server } from '../reference/v2-server.mjs';
import { createTaskRoutes } from '../tasks/http-routes.mjs';
import { withCors } from './cors.mjs';
import { createLegacySseEndpoint } from './legacy-sse.mjs';
import { toNodeListener } from './node-adapter.mjs';
import { paramHeaderRejection } from './param-header-check.mjs';
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
 * - `/v2`: v2 SDK; 2025 traffic in sessions, 2026-07-28 requests each on a fresh
 *   server, all of one URL sharing one hub (tools, counts, listen streams)
 * - `/tasks-2025`, `/tasks-2026`: the task servers (../tasks/http-routes.mjs)
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
  /** @type {Map<string, ModernEndpoint>} */
  const v2Modern = new Map();
  const tasks = createTaskRoutes();

  /** @param {Request} request */
  async function v2(request) {
    // The v2 SDK's own routing predicate: 2025 traffic (initialize, sessions) to
    // the sessionful transport, requests carrying the 2026-07-28 envelope to createMcpHandler.
    if (await isLegacyRequest(request)) return v2Legacy.handle(request);
    const url = new URL(request.url);
    let modern = v2Modern.get(url.search);
    if (modern === undefined) {
      modern = createModernEndpoint(serverOptionsFrom(url));
      v2Modern.set(url.search, modern);
    }
    const body = await request
      .clone()
      .json()
      .catch(() => undefined);
    if (typeof body?.method === 'string') modern.hub.count(body.method);
    return paramHeaderRejection(body, request.headers, modern.hub.state) ?? modern.handler.fetch(request);
  }

  /** @type {Record<string, (request: Request) => Promise<Response>>} */
  const routes = {
    '/stateful': stateful.handle,
    '/stateless': stateless.handle,
    '/resumable': resumable.handle,
    '/v2': v2,
    ...tasks.routes,
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
        tasks.close(),
        ...[...v2Modern.values()].map(({ handler }) => handler.close()),
      ]);
    },
  };
}

/**
 * @typedef {object} ModernEndpoint
 * @property {import('../reference/modern-hub.mjs').ModernHub} hub
 * @property {ReturnType<typeof createMcpHandler>} handler
 */

/**
 * The 2026-07-28 side of `/v2` for one set of options. The SDK builds a server
 * per request; they all share one hub, whose change notifications go on the
 * handler's event bus, so `add-tool` in one request reaches the
 * `subscriptions/listen` stream another request holds open.
 * @param {import('../reference/v1-server.mjs').ReferenceServerOptions} options
 * @returns {ModernEndpoint}
 */
function createModernEndpoint(options) {
  const bus = new InMemoryServerEventBus();
  const hub = createModernHub(options, {
    toolsChanged: () => bus.publish({ kind: 'tools_list_changed' }),
    resourceUpdated: (uri) => bus.publish({ kind: 'resource_updated', uri }),
  });
  const handler = createMcpHandler(() => createV2Server(options, { era: 'modern', hub }), { legacy: 'reject', bus });
  return { hub, handler };
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
