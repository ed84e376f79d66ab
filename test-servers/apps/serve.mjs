#!/usr/bin/env node
/**
 * Starts the apps test server: `node test-servers/apps/serve.mjs [--port N]
 * [--other-port N]` (0 = any free port, the default) prints one line of JSON,
 * `{"url":"http://127.0.0.1:P/mcp","origin":"http://127.0.0.1:P","otherOrigin":"http://127.0.0.1:Q"}`,
 * and runs until killed or until its stdin (when a pipe) closes. In code,
 * `startAppsServer()` resolves to the same plus `probes()` and `close()`.
 *
 * `/mcp` speaks both eras on the v2 SDK, routed by its own `isLegacyRequest`:
 * 2025 traffic (`initialize`, sessions) to the session transport, 2026-07-28
 * requests to `createMcpHandler` (a fresh server per request). The second
 * origin serves the same routes; no resource declares it, so a CSP test sees
 * what a view can reach that it did not declare.
 */
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { withCors } from '../http/cors.mjs';
import { toNodeListener } from '../http/node-adapter.mjs';
import { createSessionEndpoint } from '../http/session-endpoint.mjs';
import { listenOnLoopback, stopWhenTold } from '../serve-process.mjs';
import { createAppsServer } from './server.mjs';
import { viewBundles } from './views.mjs';

// A 1×1 transparent GIF, for the image probes.
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/**
 * Starts the apps test server on 127.0.0.1 (two origins). The views are
 * bundled before it resolves.
 * @param {{ port?: number, otherPort?: number }} [options]
 */
export async function startAppsServer({ port = 0, otherPort = 0 } = {}) {
  await viewBundles();
  /** @type {{ origin: string, path: string, from: string | null }[]} */
  const probes = [];
  const listeners = [createServer(), createServer()];
  const context = { origin: '', otherOrigin: '' };

  const legacy = createSessionEndpoint({
    Transport: WebStandardStreamableHTTPServerTransport,
    createServer: () => createAppsServer(context),
  });
  const modern = createMcpHandler(() => createAppsServer(context), { legacy: 'reject' });

  /** @param {Request} request */
  async function route(request) {
    const url = new URL(request.url);
    if (url.pathname === '/mcp') {
      return (await isLegacyRequest(request)) ? legacy.handle(request) : modern.fetch(request);
    }
    if (url.pathname.startsWith('/probe/')) {
      probes.push({ origin: url.origin, path: url.pathname, from: url.searchParams.get('from') });
      return url.pathname === '/probe/pixel.png'
        ? new Response(PIXEL, { headers: { 'content-type': 'image/gif' } })
        : new Response('probe ok', { headers: { 'content-type': 'text/plain' } });
    }
    if (url.pathname === '/health') return new Response('ok', { headers: { 'content-type': 'text/plain' } });
    return new Response('Not found', { status: 404 });
  }

  const listener = toNodeListener(withCors(route));
  for (const server of listeners) server.on('request', listener);
  [context.origin, context.otherOrigin] = await Promise.all([
    listenOnLoopback(listeners[0], port),
    listenOnLoopback(listeners[1], otherPort),
  ]);
  return {
    /** The MCP endpoint, both eras. */
    url: `${context.origin}/mcp`,
    origin: context.origin,
    otherOrigin: context.otherOrigin,
    /** Every request the views' probes made, in order. */
    probes: () => [...probes],
    async close() {
      await Promise.allSettled([legacy.close(), modern.close()]);
      for (const server of listeners) server.closeAllConnections();
      await Promise.all(listeners.map((server) => new Promise((resolve) => server.close(() => resolve(undefined)))));
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { port: { type: 'string', default: '0' }, 'other-port': { type: 'string', default: '0' } },
    strict: true,
  });
  const server = await startAppsServer({ port: Number(values.port), otherPort: Number(values['other-port']) });
  const { url, origin, otherOrigin } = server;
  process.stdout.write(`${JSON.stringify({ url, origin, otherOrigin })}\n`);
  stopWhenTold(() => server.close());
}
