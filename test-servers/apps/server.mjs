/**
 * The apps test server's MCP side: tools with UIs, registered through the
 * ext-apps server helpers on the v2 SDK's `McpServer`. README.md ("Apps
 * server") lists every tool and view.
 */
import { getUiCapability, registerAppResource, registerAppTool } from '@modelcontextprotocol/ext-apps/server';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { viewHtml } from './views.mjs';

export const SERVER_INFO = { name: 'apps-test-server', version: '1.0.0' };
export const GREETING_URI = 'test://apps/greeting';
export const GREETING = 'Hello from the apps test server';
export const SECRET = 'the secret is 42';

/**
 * The hostile views, by tool name (`hostile-<view>`): what each does is in its
 * source under views/hostile/ and in the README.
 */
export const HOSTILE_TOOLS = {
  'hostile-navigate-top': { view: 'navigate-top', description: 'A view that tries to navigate the host page away.' },
  'hostile-popup': { view: 'popup', description: 'A view that tries to open popup windows.' },
  'hostile-read-parent': { view: 'read-parent', description: "A view that tries to read the host page's DOM." },
  'hostile-flood': {
    view: 'flood',
    description: 'A view that posts `count` messages (default 10,000) as fast as it can.',
    inputSchema: z.object({
      count: z.number().int().min(0).max(1_000_000).optional(),
      kind: z.enum(['request', 'notification']).optional(),
    }),
  },
  'hostile-oversized': {
    view: 'oversized',
    description: 'A view that sends one ui/message of `bytes` bytes (default 20 MB).',
    inputSchema: z.object({ bytes: z.number().int().min(0).max(64_000_000).optional() }),
  },
  'hostile-garbage': { view: 'garbage', description: 'A view that posts malformed JSON-RPC.' },
  'hostile-call-model-only': { view: 'call-model-only', description: 'A view that calls secret-model-only.' },
  'hostile-open-link': {
    view: 'open-link',
    description: 'A view that asks to open javascript:, data: and file: links.',
  },
  'hostile-never-initialize': {
    view: 'never-initialize',
    description: 'A view that sends ui/initialize but never ui/notifications/initialized.',
  },
  'hostile-silent': { view: 'silent', description: 'A view that never sends anything.' },
};

/**
 * @typedef {object} AppsServerContext
 * @property {string} origin this server's origin, which `show-csp` declares
 * @property {string} otherOrigin a second origin of the same server, which no resource declares
 */

/**
 * One apps test server (one per session or per 2026-07-28 request).
 * @param {AppsServerContext} context
 * @returns {McpServer}
 */
export function createAppsServer({ origin, otherOrigin }) {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {}, resources: {}, logging: {} } });
  const text = (value) => ({ content: [{ type: 'text', text: value }] });
  const probeConfig = { declared: origin, undeclared: otherOrigin };

  // visibility left out: the spec's default, ["model", "app"].
  registerAppTool(
    server,
    'show-counter',
    {
      title: 'Counter',
      description: 'Shows an interactive counter.',
      inputSchema: z.object({ start: z.number().int().optional() }),
      _meta: { ui: { resourceUri: 'ui://apps-test/counter.html' } },
    },
    async ({ start = 0 }) => ({ ...text(`Counter shown at ${start}`), structuredContent: { value: start } }),
  );
  registerAppTool(
    server,
    'increment',
    {
      description: 'Adds one to the counter (for the counter view only).',
      inputSchema: z.object({ value: z.number() }),
      _meta: { ui: { resourceUri: 'ui://apps-test/counter.html', visibility: ['app'] } },
    },
    async ({ value }) => ({ ...text(String(value + 1)), structuredContent: { value: value + 1 } }),
  );
  registerAppTool(
    server,
    'secret-model-only',
    { description: 'Returns a secret only the model may see.', _meta: { ui: { visibility: ['model'] } } },
    async () => text(SECRET),
  );
  registerAppTool(
    server,
    'show-csp',
    {
      description: "Shows a view whose resource declares this server's origin in ui.csp.",
      _meta: { ui: { resourceUri: 'ui://apps-test/csp.html', visibility: ['model', 'app'] } },
    },
    async () => text('CSP probe shown'),
  );
  registerAppTool(
    server,
    'show-no-csp',
    {
      description: 'Shows a view whose resource declares no ui.csp.',
      _meta: { ui: { resourceUri: 'ui://apps-test/no-csp.html' } },
    },
    async () => text('CSP probe shown (no csp)'),
  );
  server.registerTool(
    'ui-capability',
    {
      description:
        "What this request's client capabilities declare for io.modelcontextprotocol/ui, as JSON ('none' when absent).",
    },
    async () => text(JSON.stringify(getUiCapability(server.server.getClientCapabilities()) ?? 'none')),
  );

  const page = (uri, view, options) =>
    registerAppResource(server, view, uri, {}, async () => ({
      contents: [{ uri, mimeType: 'text/html;profile=mcp-app', text: await viewHtml(view, options) }],
    }));
  page('ui://apps-test/counter.html', 'counter');
  page('ui://apps-test/no-csp.html', 'probe', { data: probeConfig });
  const csp = { connectDomains: [origin], resourceDomains: [origin] };
  registerAppResource(server, 'probe (csp)', 'ui://apps-test/csp.html', { _meta: { ui: { csp } } }, async () => ({
    contents: [
      {
        uri: 'ui://apps-test/csp.html',
        mimeType: 'text/html;profile=mcp-app',
        text: await viewHtml('probe', { data: probeConfig }),
        _meta: { ui: { csp, prefersBorder: true } },
      },
    ],
  }));

  for (const [name, { view, description, inputSchema }] of Object.entries(HOSTILE_TOOLS)) {
    const uri = `ui://apps-test/hostile/${view}.html`;
    registerAppTool(
      server,
      name,
      { description, ...(inputSchema && { inputSchema }), _meta: { ui: { resourceUri: uri } } },
      async () => text(`${name} shown`),
    );
    page(uri, view);
  }

  server.registerResource('greeting', GREETING_URI, { mimeType: 'text/plain' }, async () => ({
    contents: [{ uri: GREETING_URI, mimeType: 'text/plain', text: GREETING }],
  }));
  return server;
}
