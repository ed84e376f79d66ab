import { describe, expect, it } from 'vitest';
import { RpcError } from '../../src/index.js';
import { scripted, sleep, useScriptedClients } from '../client/harness.js';

useScriptedClients();

const SERVER_INFO = { name: 'legacy-only', version: '1.0.0' };

/**
 * Checklist §1.5 (2026-07-28 stdio era detection): a dual-era client probes with
 * `server/discover` and falls back to `initialize` on the same connection on any
 * answer that is not a recognised modern one, or on silence, but never after a
 * recognised modern error. A MemoryTransport has no server key, so no verdict is cached.
 */
describe('spec: era detection on one connection', () => {
  it('falls back to initialize when the probe gets -32602, not only -32601', async () => {
    const { client, server } = scripted();
    const connecting = client.connect();
    const probe = await server.expect('server/discover');
    await server.replyError(probe.id, -32602, 'Invalid params: unknown method before initialize');
    const init = await server.expect('initialize');
    await server.reply(init.id, {
      protocolVersion: init.params?.protocolVersion,
      capabilities: {},
      serverInfo: SERVER_INFO,
    });
    await server.expect('notifications/initialized');
    await connecting;
    expect(client.protocolVersion).toBe('2025-11-25');
  });

  it('falls back to initialize when the probe is never answered, and drops the late answer to the probe quietly', async () => {
    const { client, server, errors } = scripted({ limits: { probeTimeout: 100 } });
    const connecting = client.connect();
    const probe = await server.expect('server/discover');
    const init = await server.expect('initialize', 2000);
    expect(init.id).not.toBe(probe.id);
    await server.replyError(probe.id, -32601, 'Method not found');
    await server.reply(init.id, {
      protocolVersion: init.params?.protocolVersion,
      capabilities: {},
      serverInfo: SERVER_INFO,
    });
    await server.expect('notifications/initialized');
    await connecting;
    await sleep(20);
    expect(errors).toEqual([]);
  });

  it('answers a -32022 to the probe that lists only legacy versions with the legacy handshake', async () => {
    const { client, server } = scripted();
    const connecting = client.connect();
    const probe = await server.expect('server/discover');
    await server.replyError(probe.id, -32022, 'Unsupported protocol version', {
      supported: ['2025-06-18'],
      requested: '2026-07-28',
    });
    const init = await server.expect('initialize');
    await server.reply(init.id, { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: SERVER_INFO });
    await server.expect('notifications/initialized');
    await connecting;
    expect(client.protocolVersion).toBe('2025-06-18');
  });

  it('does not fall back after a recognised modern error (-32021) to the probe', async () => {
    const { client, server } = scripted();
    const connecting = client.connect();
    const probe = await server.expect('server/discover');
    await server.replyError(probe.id, -32021, 'Missing required client capability', {
      requiredCapabilities: { elicitation: {} },
    });
    await expect(connecting).rejects.toBeInstanceOf(RpcError);
    await server.assertNoMessage(100);
  });
});
