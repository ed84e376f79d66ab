import { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { createConnectionState } from './connection-state.mjs';
import { createHandlers, findTool } from './handlers.mjs';
import { DEFAULT_PAGE_SIZE } from './pagination.mjs';
import { capabilitiesFor, instructions, serverInfo } from './server-info.mjs';
import { callTool } from './tools.mjs';
import { createV2ToolContext } from './v2-tool-context.mjs';

/**
 * The reference server on the v2 SDK (`@modelcontextprotocol/server`), low-level
 * `Server` like the v1 one so both share every handler and paginate the same way.
 * v2 serves both eras: 2025 connections after `initialize`, and 2026-07-28
 * (`server/discover`, per-request `_meta`, multi-round-trip) without one.
 * @param {import('./v1-server.mjs').ReferenceServerOptions} [options]
 * @returns {Server}
 */
export function createV2Server({ profile = 'full', pageSize = DEFAULT_PAGE_SIZE } = {}) {
  const server = new Server({ ...serverInfo }, { capabilities: capabilitiesFor(profile), instructions });
  const state = createConnectionState(profile, pageSize);

  for (const [method, handler] of Object.entries(createHandlers(state))) {
    // v2 keeps its own logging/setLevel: ctx.mcpReq.log filters by it, era-aware.
    if (method === 'logging/setLevel') continue;
    server.setRequestHandler(method, (request) => handler(request.params ?? {}));
  }

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const tool = findTool(state, request.params.name);
    const result = await callTool(tool, request.params.arguments, createV2ToolContext(server, state, ctx));
    if (result?.resultType === 'input_required') return result;
    // v2 asks low-level tools/call handlers to project results through the era's codec.
    return server.projectCallToolResult(result, tool.outputSchema && z.toJSONSchema(tool.outputSchema));
  });
  return server;
}

/**
 * Serves the v2 reference server on this process's stdio, letting the SDK pick
 * the era from the client's opening message.
 * @param {import('./v1-server.mjs').ReferenceServerOptions} [options]
 */
export function serveV2Stdio(options) {
  return serveStdio(() => createV2Server(options), {
    onerror: (error) => process.stderr.write(`reference server (v2): ${error.message}\n`),
  });
}
