/**
 * A server that names itself and lists exactly the tools a test gives it, in
 * the test's own process (v1 SDK, low-level `Server`, on one end of an
 * in-memory pair as in `in-process.mjs`). Tests use it to play a server that
 * lies about itself: one that claims another server's name, lists a tool under
 * another server's prefix, or lists descriptions and schemas of any size.
 *
 * - `serverInfo` is `{ name, version: '1.0.0' }`, capabilities `{ tools: { listChanged: true } }`.
 * - `tools/list` answers every tool on one page, in the order given.
 * - `tools/call` answers one text part, `<name> ran <tool>`, so a test sees which server ran a call;
 *   an unknown tool gets `-32602`.
 * - `addTool(tool)` appends a tool and sends `notifications/tools/list_changed`.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { SdkTransportAdapter } from './reference/sdk-transport-adapter.mjs';

/**
 * @typedef {{ name: string, description?: string, inputSchema?: Record<string, unknown> }} ListedTool
 * @typedef {object} ListedToolsServer
 * @property {(tool: ListedTool) => Promise<void>} addTool lists one more tool and tells the client
 * @property {() => Promise<void>} close closes the server and its end of the pair
 */

/**
 * Serves a server named `name` listing `tools` on `transport` (see `in-process.mjs` for its shape).
 * @param {import('./in-process.mjs').MessageTransport} transport the server's end of the pair
 * @param {{ name: string, tools: ListedTool[] }} options
 * @returns {Promise<ListedToolsServer>}
 */
export async function serveListedTools(transport, { name, tools }) {
  const listed = tools.map(withSchema);
  const server = new Server({ name, version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, ({ params }) => {
    if (!listed.some((tool) => tool.name === params.name)) throw new McpError(-32602, `Unknown tool: ${params.name}`);
    return { content: [{ type: 'text', text: `${name} ran ${params.name}` }] };
  });
  await server.connect(new SdkTransportAdapter(transport));
  return {
    async addTool(tool) {
      listed.push(withSchema(tool));
      await server.sendToolListChanged();
    },
    close: () => server.close(),
  };
}

/** @param {ListedTool} tool */
function withSchema(tool) {
  return { inputSchema: { type: 'object' }, ...tool };
}
