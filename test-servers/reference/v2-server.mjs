import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { CACHE_HINTS } from './cache-hints.mjs';
import { createConnectionState } from './connection-state.mjs';
import { countingTransport } from './counting-transport.mjs';
import { createHandlers, findTool } from './handlers.mjs';
import { installModernFeatures } from './modern-features.mjs';
import { createModernHub } from './modern-hub.mjs';
import { DEFAULT_PAGE_SIZE } from './pagination.mjs';
import { capabilitiesFor, instructions, serverInfo } from './server-info.mjs';
import { callTool, outputJsonSchema } from './tools.mjs';
import { createV2ToolContext } from './v2-tool-context.mjs';

/**
 * How a v2 server is being built: the era its entry picked (`serveStdio` and
 * `createMcpHandler` pass it to their factory), and, for 2026-07-28, the hub
 * its requests share.
 * @typedef {object} V2ServerContext
 * @property {'modern' | 'legacy'} [era] absent means 2025 (the session endpoint)
 * @property {import('./modern-hub.mjs').ModernHub} [hub] a fresh hub per server when absent
 */

/**
 * The reference server on the v2 SDK (`@modelcontextprotocol/server`), low-level
 * `Server` like the v1 one so both share every handler and paginate the same way.
 * v2 serves both eras: 2025 connections after `initialize`, and 2026-07-28
 * (`server/discover`, per-request `_meta`, multi-round-trip) without one. On
 * 2026-07-28 the state lives in the hub and the full profile adds the modern
 * tools, `mrtr-prompt`, `test://mrtr/resource` and the cache hints.
 * @param {import('./v1-server.mjs').ReferenceServerOptions} [options]
 * @param {V2ServerContext} [context]
 * @returns {Server}
 */
export function createV2Server(options = {}, { era, hub } = {}) {
  const { profile = 'full', pageSize = DEFAULT_PAGE_SIZE } = options;
  const modernHub = era === 'modern' ? (hub ?? createModernHub(options)) : undefined;
  const server = new Server(
    { ...serverInfo },
    { capabilities: capabilitiesFor(profile), instructions, cacheHints: CACHE_HINTS },
  );
  const state = modernHub?.state ?? createConnectionState(profile, pageSize);

  for (const [method, handler] of Object.entries(createHandlers(state))) {
    // v2 keeps its own logging/setLevel: ctx.mcpReq.log filters by it, era-aware.
    if (method === 'logging/setLevel') continue;
    server.setRequestHandler(method, (request) => handler(request.params ?? {}));
  }
  if (modernHub !== undefined && profile === 'full') installModernFeatures(server, state.pageSize);

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const tool = findTool(state, request.params.name);
    const result = await callTool(tool, request.params.arguments, createV2ToolContext(server, state, ctx, modernHub));
    if (result?.resultType === 'input_required') return result;
    // v2 asks low-level tools/call handlers to project results through the era's codec.
    return server.projectCallToolResult(result, outputJsonSchema(tool));
  });
  return server;
}

/**
 * Serves the v2 reference server on this process's stdio, letting the SDK pick
 * the era from the client's opening message. The process is one 2026-07-28
 * server: one hub, and every received message counted for `request-counts`.
 * @param {import('./v1-server.mjs').ReferenceServerOptions} [options]
 */
export function serveV2Stdio(options) {
  const hub = createModernHub(options);
  return serveStdio(({ era }) => createV2Server(options, { era, hub }), {
    transport: countingTransport(new StdioServerTransport(), hub.count),
    onerror: (error) => process.stderr.write(`reference server (v2): ${error.message}\n`),
  });
}
