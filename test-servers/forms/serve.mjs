/**
 * A Streamable HTTP MCP server (v1 SDK, low-level `Server`, sessions, CORS)
 * whose one tool asks the client any form a test wants, for the browser
 * chat's form test (e2e/browser-chat.spec.ts): in process,
 * `startFormsServer()` resolves to `{ url, close() }` (`url` is the MCP
 * endpoint, on 127.0.0.1 and a free port).
 *
 * - `ask {message?, requestedSchema}`: one form-mode `elicitation/create` with
 *   that schema as given; returns the client's answer as JSON text, or
 *   `isError` with its JSON-RPC error.
 */
import { createServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ElicitResultSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { withCors } from '../http/cors.mjs';
import { toNodeListener } from '../http/node-adapter.mjs';
import { createSessionEndpoint } from '../http/session-endpoint.mjs';

const ASK = {
  name: 'ask',
  description: 'Asks the user to fill in a form (elicitation) and returns the answer.',
  inputSchema: {
    type: 'object',
    properties: { message: { type: 'string' }, requestedSchema: { type: 'object' } },
    required: ['requestedSchema'],
  },
};

const text = (value, isError = false) => ({ content: [{ type: 'text', text: value }], ...(isError && { isError }) });

function formsServer() {
  const server = new Server({ name: 'forms-test-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [ASK] }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }, extra) => {
    if (params.name !== 'ask') return text(`unknown tool ${params.name}`, true);
    const { message = 'Please fill in the form', requestedSchema } = params.arguments ?? {};
    try {
      const answer = await extra.sendRequest(
        { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema } },
        ElicitResultSchema,
      );
      return text(JSON.stringify(answer));
    } catch (error) {
      return text(`${error?.code ?? ''} ${error instanceof Error ? error.message : String(error)}`, true);
    }
  });
  return server;
}

/** Starts the server; resolves once it listens. */
export async function startFormsServer() {
  const endpoint = createSessionEndpoint({
    Transport: WebStandardStreamableHTTPServerTransport,
    createServer: formsServer,
  });
  const http = createServer(toNodeListener(withCors(endpoint.handle)));
  await new Promise((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => resolve(undefined));
  });
  const address = http.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      await endpoint.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(() => resolve(undefined)));
    },
  };
}
