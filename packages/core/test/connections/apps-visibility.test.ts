import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AppsServer, startAppsServer } from '../../../../test-servers/apps/serve.mjs';
import { Servers } from '../../src/connections/index.js';
import { appsCapability } from '../../src/protocol/index.js';

// A set over the MCP Apps test server (test-servers/apps): each server's snapshot keeps every
// tool, since a view needs its app-only ones, while the catalogue a model is offered drops
// every tool whose `_meta.ui.visibility` lacks "model" (apps 2026-01-26 § Visibility).

let server: AppsServer;
const sets: Servers[] = [];
beforeAll(async () => {
  server = await startAppsServer();
});
afterEach(async () => {
  await Promise.all(sets.splice(0).map((set) => set.close()));
});
afterAll(() => server.close());

describe.each([
  { era: 'modern', client: {} },
  { era: 'legacy', client: { protocolVersion: '2025-11-25' } },
] as const)('Servers over an MCP Apps server ($era)', ({ era, client }) => {
  it('keeps app-only tools in the server snapshot and leaves them out of the catalogue, silently', async () => {
    const servers = new Servers({
      connection: {
        reconnect: { maxAttempts: 0 },
        client: { ...client, capabilities: { extensions: appsCapability() } },
      },
    });
    sets.push(servers);
    await servers.add({ name: 'apps', url: server.url });
    const snapshot = await servers.ready();
    const [apps] = snapshot.servers;
    expect(apps?.era).toBe(era);
    const listed = apps?.tools.map((tool) => tool.name) ?? [];
    expect(listed).toEqual(expect.arrayContaining(['show-counter', 'increment', 'secret-model-only']));
    const offered = snapshot.tools.map((tool) => tool.name);
    expect(offered).toEqual(listed.filter((name) => name !== 'increment'));
    expect(servers.tools()).toBe(snapshot.tools);
    expect(snapshot.warnings).toEqual([]);
  });
});
