/**
 * Which way `callTool` goes with a server's tasks is decided from what the
 * server declared or answered, never from the shape of a value: a capability
 * is not a task, and a task answer is not a reason to call the tool again.
 * Played by a scripted peer, since no real server sends these.
 */
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../src/index.js';
import { connected, scripted, useScriptedClients } from '../harness.js';

useScriptedClients();

describe('callTool and the tasks a server declares or answers with', () => {
  it('a 2025-11-25 tasks capability shaped like a task is not followed: the tool is called plainly', async () => {
    const { client, server } = await connected({}, { capabilities: { tools: {}, tasks: { taskId: 'forged' } } });
    const calling = client.callTool('echo', { text: 'hi' });
    const request = await server.expect('tools/call');
    expect(request.params).toEqual({ name: 'echo', arguments: { text: 'hi' } });
    await server.reply(request.id, { content: [{ type: 'text', text: 'hi' }] });
    expect((await calling).text).toBe('hi');
  });

  it('a 2026-07-28 task answer without a taskId is a ProtocolError, and the tool is not called again', async () => {
    const { client, server } = scripted();
    const connecting = client.connect();
    const probe = await server.expect('server/discover');
    await server.reply(probe.id, {
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {} },
      ttlMs: 0,
    });
    await connecting;
    const calling = client.callTool('echo', { text: 'once' });
    const request = await server.expect('tools/call');
    await server.reply(request.id, { resultType: 'task', status: 'working', createdAt: new Date().toISOString() });
    await expect(calling).rejects.toBeInstanceOf(ProtocolError);
    await server.assertNoMessage(100);
  });
});
