import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppsServer, startAppsServer } from '../apps/serve.mjs';
import { HOSTILE_TOOLS } from '../apps/server.mjs';
import { type Message, messageOf, post, readUntilResponse } from './http-peer.js';
import { firstText, modernMeta, modernRequest, resultOf } from './modern-peer.js';

const UI = 'io.modelcontextprotocol/ui';
const MCP_APP = 'text/html;profile=mcp-app';

interface ListedTool {
  name: string;
  _meta?: { ui?: { resourceUri?: string; visibility?: string[] }; 'ui/resourceUri'?: string };
}

let server: AppsServer;
beforeAll(async () => {
  server = await startAppsServer();
}, 30_000);
afterAll(() => server.close());

/** One request in a 2025 session that declared `capabilities`. */
async function legacyRequest(
  capabilities: Record<string, unknown>,
  method: string,
  params: Record<string, unknown> = {},
) {
  const init = await post(server.url, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'apps-test', version: '0.0.0' } },
  });
  const id = init.headers.get('mcp-session-id');
  await init.text();
  const headers = { 'mcp-session-id': id ?? '', 'mcp-protocol-version': '2025-11-25' };
  await (await post(server.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).text();
  const response = await post(server.url, { jsonrpc: '2.0', id: 2, method, params }, headers);
  const events = await readUntilResponse(response, 2);
  return events.map(messageOf).find((message) => message?.id === 2) as Message;
}

describe('apps test server', () => {
  it('lists its tools with the ext-apps metadata: default, app-only and model-only visibility', async () => {
    const message = await modernRequest(server.url, 'tools/list');
    const tools = (resultOf(message).tools ?? []) as ListedTool[];
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('show-counter')?._meta).toEqual({
      ui: { resourceUri: 'ui://apps-test/counter.html' },
      'ui/resourceUri': 'ui://apps-test/counter.html',
    });
    expect(byName.get('increment')?._meta?.ui?.visibility).toEqual(['app']);
    expect(byName.get('secret-model-only')?._meta?.ui?.visibility).toEqual(['model']);
    for (const name of Object.keys(HOSTILE_TOOLS)) expect(byName.has(name), name).toBe(true);
  });

  it("reports the client's io.modelcontextprotocol/ui declaration in both eras, and its absence", async () => {
    const declared = { extensions: { [UI]: { mimeTypes: [MCP_APP] } } };
    const modern = await modernRequest(server.url, 'tools/call', {
      name: 'ui-capability',
      arguments: {},
      _meta: modernMeta(declared),
    });
    expect(JSON.parse(firstText(modern))).toEqual({ mimeTypes: [MCP_APP] });
    const legacy = await legacyRequest(declared, 'tools/call', { name: 'ui-capability', arguments: {} });
    expect(JSON.parse(firstText(legacy))).toEqual({ mimeTypes: [MCP_APP] });
    const none = await legacyRequest({}, 'tools/call', { name: 'ui-capability', arguments: {} });
    expect(firstText(none)).toBe('"none"');
  });

  it('serves each view as one self-contained mcp-app page with the real ext-apps App bundled in', async () => {
    const read = await modernRequest(server.url, 'resources/read', { uri: 'ui://apps-test/counter.html' });
    const [content] = (resultOf(read).contents ?? []) as { mimeType?: string; text?: string }[];
    expect(content?.mimeType).toBe(MCP_APP);
    expect(content?.text).toMatch(/^<!doctype html>/);
    expect(content?.text).toContain('<script type="module">');
    // The App's handshake method names, from ext-apps' own code.
    expect(content?.text).toContain('ui/notifications/initialized');
  });

  it("declares this server's origin in show-csp's ui.csp and nothing in show-no-csp's", async () => {
    const csp = await modernRequest(server.url, 'resources/read', { uri: 'ui://apps-test/csp.html' });
    const [withCsp] = (resultOf(csp).contents ?? []) as { _meta?: { ui?: { csp?: unknown } } }[];
    expect(withCsp?._meta?.ui?.csp).toEqual({ connectDomains: [server.origin], resourceDomains: [server.origin] });
    const plain = await modernRequest(server.url, 'resources/read', { uri: 'ui://apps-test/no-csp.html' });
    const [noCsp] = (resultOf(plain).contents ?? []) as { _meta?: unknown; text?: string }[];
    expect(noCsp?._meta).toBeUndefined();
    expect(noCsp?.text).toContain(server.otherOrigin);
  });

  it('calls increment and secret-model-only (the server does not filter; the host must)', async () => {
    const increment = await modernRequest(server.url, 'tools/call', { name: 'increment', arguments: { value: 4 } });
    expect(resultOf(increment)).toMatchObject({ structuredContent: { value: 5 } });
    const secret = await legacyRequest({}, 'tools/call', { name: 'secret-model-only', arguments: {} });
    expect(firstText(secret)).toBe('the secret is 42');
  });

  it('records probe requests on either origin', async () => {
    const before = server.probes().length;
    await (await fetch(`${server.otherOrigin}/probe/connect?from=undeclared`)).text();
    expect(server.probes().slice(before)).toEqual([
      { origin: server.otherOrigin, path: '/probe/connect', from: 'undeclared' },
    ]);
  });
});
