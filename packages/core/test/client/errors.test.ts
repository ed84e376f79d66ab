import { describe, expect, it } from 'vitest';
import { ProtocolError, RpcError } from '../../src/index.js';
import { connected, type Scripted, useScriptedClients } from './harness.js';

useScriptedClients();

/** One ping round trip: proves the client still reads and answers after whatever came before. */
async function stillWorks({ client, server }: Scripted): Promise<void> {
  const pinging = client.ping();
  const ping = await server.expect('ping');
  await server.reply(ping.id, {});
  await pinging;
}

describe('errors', () => {
  it("rejects with RpcError carrying the server's code, message and data", async () => {
    const pair = await connected();
    const reading = pair.client.readResource('file:///missing').catch((e: unknown) => e);
    const request = await pair.server.expect('resources/read');
    await pair.server.replyError(request.id, -32002, 'Resource not found', { uri: 'file:///missing' });
    const error = await reading;
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({
      code: -32002,
      rpcMessage: 'Resource not found',
      data: { uri: 'file:///missing' },
      method: 'resources/read',
    });
  });

  it('rejects a result of the wrong shape with ProtocolError for that call only; the next call works', async () => {
    const pair = await connected();
    const bad = pair.client.callTool('t').catch((e: unknown) => e);
    const first = await pair.server.expect('tools/call');
    await pair.server.reply(first.id, { content: 'not a list' });
    const error = await bad;
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as Error).message).toContain('tools/call');

    const good = pair.client.callTool('t');
    const second = await pair.server.expect('tools/call');
    await pair.server.reply(second.id, { content: [{ type: 'text', text: 'fine' }] });
    expect((await good).text).toBe('fine');
    expect(pair.errors).toEqual([]);
  });

  it('rejects the call whose response has an invalid JSON-RPC envelope with ProtocolError', async () => {
    const pair = await connected();
    const wrongVersion = pair.client.callTool('a').catch((e: unknown) => e);
    const a = await pair.server.expect('tools/call');
    await pair.server.send({ jsonrpc: '1.0', id: a.id, result: { content: [] } });
    expect(await wrongVersion).toBeInstanceOf(ProtocolError);

    const resultNotObject = pair.client.callTool('b').catch((e: unknown) => e);
    const b = await pair.server.expect('tools/call');
    await pair.server.send({ jsonrpc: '2.0', id: b.id, result: 'done' });
    expect(await resultNotObject).toBeInstanceOf(ProtocolError);

    await stillWorks(pair);
    expect(pair.errors).toEqual([]);
  });

  it('reports a response to an unknown id to onError and drops it', async () => {
    const pair = await connected();
    await pair.server.reply(4242, { content: [] });
    await stillWorks(pair);
    expect(pair.errors).toHaveLength(1);
    expect(pair.errors[0]).toBeInstanceOf(ProtocolError);
    expect(pair.errors[0]?.message).toMatch(/unknown request id 4242/);
  });

  it('drops a late answer to a call it gave up on quietly, for the 1,024 it gave up on last', async () => {
    const pair = await connected();
    const pings = [];
    for (let n = 0; n < 1025; n++) {
      const stop = new AbortController();
      const pinging = pair.client.ping({ signal: stop.signal }).catch(() => undefined);
      pings.push(await pair.server.expect('ping'));
      stop.abort();
      await pinging;
      await pair.server.expect('notifications/cancelled');
    }
    for (const ping of pings) await pair.server.reply(ping.id, {});
    await stillWorks(pair);
    // Giving up on the 1,025th forgot the first: its answer is a stray.
    expect(pair.errors.map((error) => error.message)).toEqual([`mcp: response to unknown request id ${pings[0]?.id}`]);
  });

  it('reports non-object messages to onError and drops them', async () => {
    const pair = await connected();
    for (const garbage of [42, 'garbage', null, true]) await pair.server.send(garbage);
    await stillWorks(pair);
    expect(pair.errors).toHaveLength(4);
    for (const error of pair.errors) expect(error).toBeInstanceOf(ProtocolError);
  });

  it('reports an empty batch to onError, as it is not a JSON-RPC message', async () => {
    const pair = await connected();
    await pair.server.send([]);
    await stillWorks(pair);
    expect(pair.errors).toHaveLength(1);
    expect(pair.errors[0]).toBeInstanceOf(ProtocolError);
  });
});
