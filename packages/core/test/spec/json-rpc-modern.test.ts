import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/index.js';
import { connected, scripted, sleep, useScriptedClients } from '../client/harness.js';
import { discover } from './modern-scripted.js';

useScriptedClients();

/** Checklist §2 (JSON-RPC framing) where 2025-03-26 and 2026-07-28 differ from the rest. */
describe('spec: JSON-RPC framing across revisions', () => {
  it('2026-07-28: reads a result without resultType as complete', async () => {
    const { client, server } = scripted();
    await Promise.all([client.connect(), discover(server)]);
    const call = client.callTool('echo', { text: 'hi' });
    const request = await server.expect('tools/call');
    await server.reply(request.id, { content: [{ type: 'text', text: 'hi' }] });
    await expect(call).resolves.toMatchObject({ text: 'hi', isError: false });
  });

  it('2026-07-28: reports a request from the server with its method cut short in the message and whole in data.received', async () => {
    const { client, server, errors } = scripted();
    await Promise.all([client.connect(), discover(server)]);
    const method = `tools/${'x'.repeat(10_000)}`;
    await server.send({ jsonrpc: '2.0', id: 'long', method });
    while (errors.length === 0) await sleep(5);
    const [error] = errors;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error?.message).toContain(method.slice(0, 80));
    expect(error?.message.length).toBeLessThan(200);
    expect((error as ProtocolError).data.received).toEqual({ method });
    await server.assertNoMessage(50);
  });

  it('2025-03-26: takes a batch of responses and a batch of server requests, answering each request', async () => {
    const { client, server } = await connected({}, { protocolVersion: '2025-03-26' });
    const first = client.callTool('a');
    const second = client.callTool('b');
    const [one, two] = [await server.expect('tools/call'), await server.expect('tools/call')];
    await server.send([
      { jsonrpc: '2.0', id: two.id, result: { content: [{ type: 'text', text: 'two' }] } },
      { jsonrpc: '2.0', id: one.id, result: { content: [{ type: 'text', text: 'one' }] } },
    ]);
    await expect(first).resolves.toMatchObject({ text: 'one' });
    await expect(second).resolves.toMatchObject({ text: 'two' });
    await server.send([
      { jsonrpc: '2.0', id: 'p1', method: 'ping' },
      { jsonrpc: '2.0', id: 'p2', method: 'ping' },
    ]);
    const answers = [await server.next(), await server.next()];
    expect(answers).toEqual(
      expect.arrayContaining([
        { jsonrpc: '2.0', id: 'p1', result: {} },
        { jsonrpc: '2.0', id: 'p2', result: {} },
      ]),
    );
  });
});
