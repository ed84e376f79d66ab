import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppsServer, startAppsServer } from '../../../../test-servers/apps/serve.mjs';
import { Client, type ClientOptions, mcpTools, StreamableHttpTransport } from '../../src/index.js';
import { appsCapability, MCP_APP_MIME_TYPE } from '../../src/protocol/index.js';
import { useClientGuards } from '../transport/http/harness.js';

// The MCP Apps test server (test-servers/apps, ext-apps' server helpers on the official v2 SDK)
// reports, through its `ui-capability` tool, what the SDK saw of the client's
// io.modelcontextprotocol/ui declaration: in `initialize` for 2025 sessions, in each
// request's `_meta` on 2026-07-28.

let server: AppsServer;
beforeAll(async () => {
  server = await startAppsServer();
});
afterAll(() => server.close());
const open = useClientGuards();

const ERAS = [
  { era: 'modern', options: {} },
  { era: 'legacy', options: { protocolVersion: '2025-11-25' } },
] as const;

async function connected(era: 'modern' | 'legacy', options: ClientOptions): Promise<Client> {
  const client = new Client(new StreamableHttpTransport(server.url), {
    requestTimeout: 5000,
    eraCache: new Map(),
    ...options,
  });
  open.push(client);
  await client.connect();
  expect(client.era).toBe(era);
  return client;
}

describe.each(ERAS)('MCP Apps on a $era connection', ({ era, options }) => {
  it('declares io.modelcontextprotocol/ui with the mcp-app MIME type when the app asks', async () => {
    const client = await connected(era, { ...options, capabilities: { extensions: appsCapability() } });
    const seen = await client.callTool('ui-capability', {});
    expect(JSON.parse(seen.text)).toEqual({ mimeTypes: [MCP_APP_MIME_TYPE] });
  });

  it('keeps the other extensions the app declares beside it', async () => {
    const client = await connected(era, {
      ...options,
      capabilities: { extensions: { 'com.example/other': { on: true }, ...appsCapability() } },
    });
    expect(JSON.parse((await client.callTool('ui-capability', {})).text)).toEqual({ mimeTypes: [MCP_APP_MIME_TYPE] });
  });

  it('declares nothing of MCP Apps when the app does not ask', async () => {
    const client = await connected(era, options);
    expect((await client.callTool('ui-capability', {})).text).toBe('"none"');
  });

  it('lists every tool, app-only ones too, but mcpTools offers a model only the model-visible ones', async () => {
    const client = await connected(era, { ...options, capabilities: { extensions: appsCapability() } });
    const listed = (await client.listTools()).map((tool) => tool.name);
    expect(listed).toEqual(expect.arrayContaining(['show-counter', 'increment', 'secret-model-only']));
    const offered = (await mcpTools(client)).map((tool) => tool.name);
    expect(offered).not.toContain('increment');
    expect(offered).toEqual(listed.filter((name) => name !== 'increment'));
    expect(offered).toEqual(expect.arrayContaining(['show-counter', 'secret-model-only', 'show-csp']));
  });
});
