import { describe, expect, it } from 'vitest';
import { causes, failLoadsOf } from '../../transport/http/fail-loads.js';
import { hubUrl, useClients, useHttpServers } from './modern-harness.js';

// A file of its own: once the rules have loaded, every later import gets them from the cache, so their loads
// can only be failed before anything loads them.

const servers = useHttpServers();
const open = useClients();

describe('the x-mcp-header rules, loaded on demand', () => {
  it('a listing with annotated tools fails with the load failure while the rules cannot load; the next listing loads them and calls carry the headers', async () => {
    const { client } = await open(hubUrl(servers.modes, 'headers-load'));
    const load = failLoadsOf('client/x-mcp-header/index.js');
    const refused = await client.listTools().catch((caught: unknown) => caught);
    load.restore();
    expect(causes(refused)).toContain(load.failure);

    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('header-echo');
    const echo = JSON.parse((await client.callTool('header-echo', { region: 'eu-west' })).text) as {
      headers: Record<string, string>;
    };
    expect(echo.headers['mcp-param-region']).toBe('eu-west');
  });
});
