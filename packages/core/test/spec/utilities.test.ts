import { describe, expect, it } from 'vitest';
import { scripted, useScriptedClients } from '../client/harness.js';
import { discover, metaOf } from './modern-scripted.js';

useScriptedClients();

/** Checklist §9.1 and §7.6: ping and logging, which 2026-07-28 removed. */
describe('spec: ping and logging in 2026-07-28', () => {
  it('ping() sends server/discover, never ping, to a 2026-07-28 server', async () => {
    const { client, server } = scripted();
    await Promise.all([client.connect(), discover(server)]);
    const ping = client.ping();
    const sent = await server.expect('server/discover');
    await server.reply(sent.id, {
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: {},
      ttlMs: 0,
      cacheScope: 'private',
    });
    await ping;
  });

  it('setLoggingLevel() sends no logging/setLevel and stamps the level on later requests', async () => {
    const { client, server } = scripted();
    await Promise.all([client.connect(), discover(server)]);
    await client.setLoggingLevel('debug');
    const list = client.listTools();
    const request = await server.expect('tools/list');
    expect(metaOf(request)['io.modelcontextprotocol/logLevel']).toBe('debug');
    await server.reply(request.id, { resultType: 'complete', tools: [], ttlMs: 0, cacheScope: 'private' });
    await list;
  });
});
