import { describe, expect, it } from 'vitest';
import { connected, useScriptedClients } from './harness.js';

useScriptedClients();

describe('a client given handlers, before its answering module was ever loaded', () => {
  // Its own file: the answering module is not loaded yet, as in a fresh program.
  it("a notification sent before a call's answer reaches onNotification before the call resolves", async () => {
    const seen: string[] = [];
    const { client, server } = await connected({ onNotification: (method) => seen.push(method) });
    const call = client.callTool('echo', {}).then(() => seen.push('answered'));
    const request = await server.expect('tools/call');
    await server.notify('notifications/message', { level: 'info', data: 'working' });
    await server.reply(request.id, { content: [] });
    await call;
    expect(seen).toEqual(['notifications/message', 'answered']);
  });
});
