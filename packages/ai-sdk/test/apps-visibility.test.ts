import { Client, StreamableHttpTransport } from '@mcp/core';
import { Servers } from '@mcp/core/connections';
import { appsCapability } from '@mcp/core/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AppsServer, startAppsServer } from '../../../test-servers/apps/serve.mjs';
import { mcpToolSet, watchMcpToolSet } from '../src/index.js';
import { runLoop, scriptedModel } from './scripted-model.js';

// The MCP Apps test server (test-servers/apps) lists `increment` for its views only
// (`_meta.ui.visibility: ["app"]`) and `secret-model-only` for the model only. A host MUST NOT
// offer the model a tool whose visibility lacks "model" (apps 2026-01-26 § Visibility): every
// way @mcp/ai-sdk builds a tool set leaves `increment` out, in both eras.

let server: AppsServer;
const clients: Client[] = [];
const sets: Servers[] = [];
beforeAll(async () => {
  server = await startAppsServer();
});
afterEach(async () => {
  await Promise.all([
    ...clients.splice(0).map((client) => client.close()),
    ...sets.splice(0).map((set) => set.close()),
  ]);
});
afterAll(() => server.close());

const ERAS = [
  { era: 'modern', options: {} },
  { era: 'legacy', options: { protocolVersion: '2025-11-25' } },
] as const;

describe.each(ERAS)('MCP Apps visibility in tool sets ($era)', ({ era, options }) => {
  async function client(): Promise<Client> {
    const connected = new Client(new StreamableHttpTransport(server.url), {
      eraCache: new Map(),
      ...options,
      capabilities: { extensions: appsCapability() },
    });
    clients.push(connected);
    await connected.connect();
    expect(connected.era).toBe(era);
    return connected;
  }

  it('mcpToolSet offers the model every tool but the app-only one', async () => {
    const source = await client();
    const listed = (await source.listTools()).map((tool) => tool.name);
    expect(listed).toContain('increment');
    const tools = await mcpToolSet(source);
    expect(Object.keys(tools)).toEqual(listed.filter((name) => name !== 'increment'));
    expect(Object.keys(tools)).toContain('secret-model-only');

    // What the model itself is handed, in a real AI SDK loop.
    const { model } = scriptedModel([{ text: 'nothing to do' }]);
    await runLoop('generateText', model, tools);
    const offered = model.doGenerateCalls[0]?.tools?.map((tool) => tool.name);
    expect(offered).toEqual(Object.keys(tools));
    expect(offered).not.toContain('increment');
  });

  it('watchMcpToolSet leaves it out too', async () => {
    await using watcher = await watchMcpToolSet(await client());
    expect(Object.keys(watcher.tools)).toContain('show-counter');
    expect(Object.keys(watcher.tools)).not.toContain('increment');
    expect(Object.keys(await watcher.refresh())).not.toContain('increment');
  });

  it('a server set as the source leaves it out, while its snapshot keeps it for the views', async () => {
    const servers = new Servers({
      connection: {
        reconnect: { maxAttempts: 0 },
        client: { ...options, capabilities: { extensions: appsCapability() } },
      },
    });
    sets.push(servers);
    await servers.add({ name: 'apps', url: server.url });
    const snapshot = await servers.ready();
    expect(snapshot.servers[0]?.tools.map((tool) => tool.name)).toContain('increment');
    const tools = await mcpToolSet(servers);
    expect(Object.keys(tools)).toContain('secret-model-only');
    expect(Object.keys(tools)).not.toContain('increment');
  });
});
