import { describe, expect, it } from 'vitest';
import { scripted, useScriptedClients } from '../client/harness.js';

useScriptedClients();

/** Checklist §1.1 (2024-11-05 … 2025-11-25 lifecycle): what a client must take before its handshake completes. */
describe('spec: the legacy handshake', () => {
  it('delivers a log message the server sends before the initialize result to onNotification', async () => {
    const seen: Array<[string, unknown]> = [];
    const { client, server } = scripted({ onNotification: (method, params) => seen.push([method, params]) });
    const connecting = client.connect();
    const init = await server.expectInitialize();
    await server.notify('notifications/message', { level: 'info', data: 'starting up' });
    await server.reply(init.id, {
      protocolVersion: init.params?.protocolVersion,
      capabilities: { logging: {} },
      serverInfo: { name: 'early-logger', version: '1.0.0' },
    });
    await server.expect('notifications/initialized');
    await connecting;
    await expect.poll(() => seen).toEqual([['notifications/message', { level: 'info', data: 'starting up' }]]);
  });

  it('sends initialize as its first request and nothing else before the result, even when a call is made meanwhile', async () => {
    const { client, server } = scripted();
    const connecting = client.connect();
    const init = await server.expectInitialize();
    // A call made while the handshake is open is refused, not sent ahead of the result.
    await expect(client.ping()).rejects.toThrow('call connect() first');
    await server.assertNoMessage(50);
    await server.reply(init.id, {
      protocolVersion: init.params?.protocolVersion,
      capabilities: {},
      serverInfo: { name: 'slow', version: '1.0.0' },
    });
    await server.expect('notifications/initialized');
    await connecting;
  });
});
