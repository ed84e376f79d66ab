/**
 * What a misbehaving 2026-07-28 server sends, played by a scripted peer over
 * MemoryTransport: the reference server never breaks these rules.
 */
import { describe, expect, it } from 'vitest';
import { ErrorCode, ProtocolError, RpcError, UnsupportedVersionError } from '../../../src/index.js';
import { scripted, useScriptedClients } from '../../client/harness.js';
import type { ScriptedServer } from '../../client/scripted-server.js';

useScriptedClients();

const DISCOVER = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {}, prompts: {}, resources: {} },
  ttlMs: 0,
  cacheScope: 'private',
};

async function discover(server: ScriptedServer): Promise<void> {
  const probe = await server.expect('server/discover');
  await server.reply(probe.id, DISCOVER);
}

const ELICIT = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
  },
};

describe('resultType from a 2026-07-28 server', () => {
  it('an unknown resultType is a ProtocolError', async () => {
    const { client, server } = scripted();
    await Promise.all([client.connect(), discover(server)]);
    const call = client.callTool('echo', { text: 'x' });
    const request = await server.expect('tools/call');
    await server.reply(request.id, { resultType: 'eventually', content: [] });
    await expect(call).rejects.toThrow(ProtocolError);
    await expect(call).rejects.toThrow(/unknown resultType "eventually"/);
  });

  it('input_required on tools/list is a ProtocolError, and no retry is sent', async () => {
    const { client, server } = scripted({ elicitation: () => ({ action: 'accept', content: { name: 'x' } }) });
    await Promise.all([client.connect(), discover(server)]);
    const list = client.listTools();
    const request = await server.expect('tools/list');
    await server.reply(request.id, { resultType: 'input_required', inputRequests: { ask: ELICIT } });
    await expect(list).rejects.toThrow(ProtocolError);
    await server.assertNoMessage(50);
  });

  it('an elicitation input request the client never declared is declined, and the call retried', async () => {
    const { client, server } = scripted();
    await Promise.all([client.connect(), discover(server)]);
    const call = client.callTool('needs-input');
    const first = await server.expect('tools/call');
    await server.reply(first.id, { resultType: 'input_required', inputRequests: { ask: ELICIT }, requestState: 's1' });
    const retry = await server.expect('tools/call');
    expect(retry.id).not.toBe(first.id);
    expect(retry.params).toMatchObject({ inputResponses: { ask: { action: 'decline' } }, requestState: 's1' });
    await server.reply(retry.id, { resultType: 'complete', content: [{ type: 'text', text: 'declined' }] });
    expect((await call).text).toBe('declined');
  });

  it('a sampling input request with no handler fails the call with a ProtocolError naming it, without a retry', async () => {
    const { client, server } = scripted();
    await Promise.all([client.connect(), discover(server)]);
    const call = client.callTool('needs-sampling');
    const first = await server.expect('tools/call');
    const sampling = { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } };
    await server.reply(first.id, { resultType: 'input_required', inputRequests: { llm: sampling } });
    await expect(call).rejects.toThrow(ProtocolError);
    await expect(call).rejects.toThrow(/sampling\/createMessage/);
    await server.assertNoMessage(50);
  });

  it('-32022 on a later request is an UnsupportedVersionError listing what the server supports', async () => {
    const { client, server } = scripted();
    await Promise.all([client.connect(), discover(server)]);
    const call = client.callTool('echo', { text: 'x' });
    const request = await server.expect('tools/call');
    await server.replyError(request.id, -32022, 'Unsupported protocol version', {
      supported: ['2027-01-01'],
      requested: '2026-07-28',
    });
    const error = await call.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnsupportedVersionError);
    expect((error as UnsupportedVersionError).supported).toEqual(['2027-01-01']);
    const cause = (error as UnsupportedVersionError).cause;
    expect(cause).toBeInstanceOf(RpcError);
    expect((cause as RpcError).code).toBe(ErrorCode.UnsupportedProtocolVersion);
  });
});
