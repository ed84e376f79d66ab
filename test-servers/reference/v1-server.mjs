import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { createConnectionState } from './connection-state.mjs';
import { createHandlers, findTool } from './handlers.mjs';
import { DEFAULT_PAGE_SIZE } from './pagination.mjs';
import { capabilitiesFor, instructions, serverInfo } from './server-info.mjs';
import { callTool } from './tools.mjs';
import { createV1ToolContext } from './v1-tool-context.mjs';

/**
 * @typedef {object} ReferenceServerOptions
 * @property {import('./server-info.mjs').Profile} [profile] `full` (default) or `minimal`
 * @property {number} [pageSize] items per page of every list; default 5
 */

/** The v1 request schema of each method the shared handlers serve. */
const REQUEST_SCHEMAS = {
  'tools/list': ListToolsRequestSchema,
  'resources/list': ListResourcesRequestSchema,
  'resources/templates/list': ListResourceTemplatesRequestSchema,
  'resources/read': ReadResourceRequestSchema,
  'resources/subscribe': SubscribeRequestSchema,
  'resources/unsubscribe': UnsubscribeRequestSchema,
  'prompts/list': ListPromptsRequestSchema,
  'prompts/get': GetPromptRequestSchema,
  'completion/complete': CompleteRequestSchema,
  'logging/setLevel': SetLevelRequestSchema,
};

/**
 * The reference server on the v1 SDK's low-level `Server`: low-level because
 * McpServer neither paginates lists nor lets a fixture keep fields the schema
 * does not know. One server per connection; connect it to any v1 Transport.
 * @param {ReferenceServerOptions} [options]
 * @returns {Server}
 */
export function createV1Server({ profile = 'full', pageSize = DEFAULT_PAGE_SIZE } = {}) {
  const server = new Server({ ...serverInfo }, { capabilities: capabilitiesFor(profile), instructions });
  const state = createConnectionState(profile, pageSize);

  // Our logging/setLevel replaces the SDK's, so the level lives in `state`.
  for (const [method, handler] of Object.entries(createHandlers(state))) {
    server.setRequestHandler(REQUEST_SCHEMAS[method], (request) => handler(request.params ?? {}));
  }

  // Server#setRequestHandler re-parses tools/call results with zod objects that
  // drop unknown keys; `mixed-content` must deliver its unknown field, so the
  // handler goes in through Protocol's plain registration instead.
  Protocol.prototype.setRequestHandler.call(server, CallToolRequestSchema, (request, extra) => {
    const tool = findTool(state, request.params.name);
    return callTool(tool, request.params.arguments, createV1ToolContext(server, state, extra));
  });
  return server;
}
