import { describe, expect, it } from 'vitest';
import {
  ClientClosedError,
  type ClientOptions,
  ErrorCode,
  RpcError,
  UnsupportedVersionError,
} from '../../src/index.js';
import { scripted, useScriptedClients } from './harness.js';

useScriptedClients();

const clientInfo = { name: 'test-app', version: '1.2.3' };

/** Connects a client built with `options` and returns the capabilities its initialize declared. */
async function declaredCapabilities(options: ClientOptions): Promise<unknown> {
  const { client, server } = scripted(options);
  const [, init] = await Promise.all([client.connect(), server.handshake()]);
  return init.params?.capabilities;
}

const noop = () => ({ action: 'decline' as const });
const sample = () => ({ role: 'assistant' as const, content: { type: 'text' as const, text: '' }, model: 'm' });

describe('connect', () => {
  it('sends initialize with protocolVersion 2025-11-25, the clientInfo and no capabilities without handlers', async () => {
    const { client, server } = scripted({ clientInfo });
    const [, init] = await Promise.all([client.connect(), server.handshake()]);
    expect(init.params).toEqual({ protocolVersion: '2025-11-25', capabilities: {}, clientInfo });
  });

  it('declares sampling only when a sampling handler is given', async () => {
    expect(await declaredCapabilities({ sampling: sample })).toEqual({ sampling: {} });
  });

  it('declares elicitation {form:{}} for a bare elicitation handler', async () => {
    expect(await declaredCapabilities({ elicitation: noop })).toEqual({ elicitation: { form: {} } });
  });

  it('declares elicitation {form:{}, url:{}} for {handler, url: true}', async () => {
    expect(await declaredCapabilities({ elicitation: { handler: noop, url: true } })).toEqual({
      elicitation: { form: {}, url: {} },
    });
  });

  it('declares roots {listChanged:false} for a roots array', async () => {
    expect(await declaredCapabilities({ roots: [{ uri: 'file:///a' }] })).toEqual({ roots: { listChanged: false } });
  });

  it('declares roots {listChanged:true} for a roots function', async () => {
    expect(await declaredCapabilities({ roots: () => [] })).toEqual({ roots: { listChanged: true } });
  });

  it('sends notifications/initialized only after the initialize result', async () => {
    const { client, server } = scripted();
    const connecting = client.connect();
    const init = await server.expectInitialize();
    await server.assertNoMessage(30);
    await server.reply(init.id, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: clientInfo });
    const initialized = await server.expect('notifications/initialized');
    expect(initialized).toEqual({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await connecting;
  });

  it('answers a server ping that arrives before the initialize result', async () => {
    const { client, server } = scripted();
    const connecting = client.connect();
    const init = await server.expectInitialize();
    expect((await server.request('ping')).result).toEqual({});
    await server.reply(init.id, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: clientInfo });
    await server.expect('notifications/initialized');
    await connecting;
  });

  it('accepts 2025-06-18 answered by the server and exposes what it learned', async () => {
    const { client, server } = scripted();
    const serverInfo = { name: 'older', version: '0.9.0' };
    const capabilities = { tools: { listChanged: true }, logging: {} };
    await Promise.all([
      client.connect(),
      server.handshake({ protocolVersion: '2025-06-18', serverInfo, capabilities, instructions: 'Be brief.' }),
    ]);
    expect(client.protocolVersion).toBe('2025-06-18');
    expect(client.serverInfo).toEqual(serverInfo);
    expect(client.serverCapabilities).toEqual(capabilities);
    expect(client.instructions).toBe('Be brief.');
  });

  it('accepts 2024-11-05 answered by the server', async () => {
    const { client, server } = scripted();
    await Promise.all([client.connect(), server.handshake({ protocolVersion: '2024-11-05' })]);
    expect(client.protocolVersion).toBe('2024-11-05');
    expect(client.instructions).toBeUndefined();
  });

  it('rejects an unknown version with UnsupportedVersionError, closes, and later calls reject with ClientClosedError', async () => {
    const { client, server } = scripted();
    const connecting = client.connect();
    const init = await server.expectInitialize();
    await server.reply(init.id, { protocolVersion: '1999-01-01', capabilities: {}, serverInfo: clientInfo });
    const error = await connecting.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedVersionError);
    expect((error as UnsupportedVersionError).requested).toBe('1999-01-01');
    await server.expectEnd();
    await expect(client.listTools()).rejects.toBeInstanceOf(ClientClosedError);
    await expect(client.ping()).rejects.toBeInstanceOf(ClientClosedError);
  });

  it('retries initialize once with a version from -32602 data.supported', async () => {
    const { client, server } = scripted();
    const connecting = client.connect();
    const first = await server.expectInitialize();
    await server.replyError(first.id, -32602, 'Unsupported protocol version', {
      supported: ['2024-11-05', '2025-06-18'],
      requested: '2025-11-25',
    });
    const second = await server.expectInitialize();
    expect(second.params?.protocolVersion).toBe('2025-06-18');
    expect(second.id).not.toBe(first.id);
    await server.reply(second.id, { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: clientInfo });
    await server.expect('notifications/initialized');
    await connecting;
    expect(client.protocolVersion).toBe('2025-06-18');
  });

  it('retries initialize only once when the retry is refused too', async () => {
    const { client, server } = scripted();
    const connecting = client.connect();
    const refuse = async () => {
      const init = await server.expectInitialize();
      await server.replyError(init.id, -32602, 'Unsupported protocol version', { supported: ['2025-06-18'] });
    };
    await refuse();
    await refuse();
    await expect(connecting).rejects.toBeInstanceOf(RpcError);
    await server.assertNoMessage(30);
  });

  it('rejects with UnsupportedVersionError when -32602 data.supported shares no version with the client', async () => {
    const { client, server } = scripted();
    const connecting = client.connect().catch((e: unknown) => e);
    const init = await server.expectInitialize();
    await server.replyError(init.id, -32602, 'Unsupported protocol version', {
      supported: ['1999-01-01'],
      requested: '2025-11-25',
    });
    const error = await connecting;
    expect(error).toBeInstanceOf(UnsupportedVersionError);
    expect((error as UnsupportedVersionError).supported).toEqual(['1999-01-01']);
    const cause = (error as UnsupportedVersionError).cause;
    expect(cause).toBeInstanceOf(RpcError);
    expect((cause as RpcError).code).toBe(ErrorCode.InvalidParams);
    await server.expectEnd();
  });

  it('sends a pinned protocolVersion in initialize', async () => {
    const { client, server } = scripted({ protocolVersion: '2025-06-18' });
    const [, init] = await Promise.all([client.connect(), server.handshake()]);
    expect(init.params?.protocolVersion).toBe('2025-06-18');
    expect(client.protocolVersion).toBe('2025-06-18');
  });

  it('rejects an answer that differs from the pinned protocolVersion', async () => {
    const { client, server } = scripted({ protocolVersion: '2025-06-18' });
    const connecting = client.connect();
    const init = await server.expectInitialize();
    await server.reply(init.id, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: clientInfo });
    await expect(connecting).rejects.toBeInstanceOf(UnsupportedVersionError);
    await server.expectEnd();
    await expect(client.listTools()).rejects.toBeInstanceOf(ClientClosedError);
  });
});
