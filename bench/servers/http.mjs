#!/usr/bin/env node
/**
 * The HTTP benchmark servers, each on the official server SDKs, on 127.0.0.1:
 *
 * - `/stateful`: v1 Streamable HTTP with sessions; POSTs answered as SSE streams
 * - `/stateless`: v1 Streamable HTTP without sessions; `application/json` answers,
 *   a fresh server and transport per request (the SDK's stateless pattern)
 * - `/modern`: v2 `createMcpHandler`: 2026-07-28 requests (`_meta` envelope, no
 *   handshake), and 2025 traffic on the SDK's built-in stateless fallback
 *
 * Prints one JSON line `{"url":"http://127.0.0.1:PORT"}` and runs until stdin ends.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { createV1BenchServer, createV2BenchServer } from './tools.mjs';
import { webToNode } from './web-to-node.mjs';

/** @type {Map<string, StreamableHTTPServerTransport>} */
const sessions = new Map();

/** @type {import('node:http').RequestListener} */
async function stateful(req, res) {
  const id = req.headers['mcp-session-id'];
  if (typeof id === 'string') {
    const transport = sessions.get(id);
    if (transport === undefined) return void res.writeHead(404).end('Session not found');
    return transport.handleRequest(req, res);
  }
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
  });
  transport.onclose = () => {
    if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
  };
  await createV1BenchServer().connect(transport);
  await transport.handleRequest(req, res);
}

/** @type {import('node:http').RequestListener} */
async function stateless(req, res) {
  if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  const server = createV1BenchServer();
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}

const modernHandler = createMcpHandler(() => createV2BenchServer());
const modern = webToNode((request) => modernHandler.fetch(request));

let connections = 0;
/** `GET /connections`: TCP connections accepted so far, to check that clients keep theirs alive. */
/** @type {import('node:http').RequestListener} */
const connectionCount = (_req, res) => void res.end(String(connections));

/** @type {Record<string, import('node:http').RequestListener>} */
const routes = { '/stateful': stateful, '/stateless': stateless, '/modern': modern, '/connections': connectionCount };

const server = createServer((req, res) => {
  const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
  if (route === undefined) return void res.writeHead(404).end();
  Promise.resolve(route(req, res)).catch((error) => {
    if (!res.headersSent) res.writeHead(500);
    res.end(String(error));
  });
});
server.on('connection', () => connections++);
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});

const stop = () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 1000).unref();
};
process.stdin.on('end', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
