import { describe, expect, it } from 'vitest';
import { ClientClosedError } from '../../src/index.js';
import { aborted, connected, deferred, scripted, useScriptedClients } from './harness.js';

useScriptedClients();

const SAMPLE_PARAMS = { messages: [{ role: 'user', content: { type: 'text', text: 'Hi?' } }], maxTokens: 8 };

describe('close', () => {
  it('rejects every pending call with ClientClosedError', async () => {
    const { client, server } = await connected();
    const calls = [client.callTool('slow'), client.readResource('file:///x'), client.listPrompts()].map((call) =>
      call.catch((e: unknown) => e),
    );
    await server.expect('tools/call');
    await server.expect('resources/read');
    await server.expect('prompts/list');
    await client.close();
    for (const error of await Promise.all(calls)) expect(error).toBeInstanceOf(ClientClosedError);
  });

  it('does not let a handler that ignores its signal hold close beyond limits.closeGrace', async () => {
    const started = deferred<AbortSignal>();
    const { client, server } = await connected({
      limits: { closeGrace: 100 },
      sampling: (_request, { signal }) => {
        started.resolve(signal);
        return new Promise(() => {}); // never settles, whatever the signal says
      },
    });
    await server.send({ jsonrpc: '2.0', id: 'stuck', method: 'sampling/createMessage', params: SAMPLE_PARAMS });
    const signal = await started.promise;
    const began = performance.now();
    await client.close();
    const elapsed = performance.now() - began;
    expect(signal.aborted).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(90);
    expect(elapsed).toBeLessThan(400);
  });

  it('is idempotent: two close() calls both resolve', async () => {
    const { client, server } = await connected();
    await Promise.all([client.close(), client.close()]);
    await client.close();
    await server.expectEnd();
  });

  it('closes the client at the end of an `await using` block (Symbol.asyncDispose)', async () => {
    const pair = await connected();
    {
      await using client = pair.client;
      expect(client.protocolVersion).toBe('2025-11-25');
    }
    await pair.server.expectEnd();
    await expect(pair.client.ping()).rejects.toBeInstanceOf(ClientClosedError);
  });

  it('rejects calls after close with ClientClosedError', async () => {
    const { client, server } = await connected({ roots: () => [] });
    await client.close();
    await expect(client.callTool('t')).rejects.toBeInstanceOf(ClientClosedError);
    await expect(client.listTools()).rejects.toBeInstanceOf(ClientClosedError);
    await expect(client.ping()).rejects.toBeInstanceOf(ClientClosedError);
    await expect(client.notifyRootsChanged()).rejects.toBeInstanceOf(ClientClosedError);
    await server.assertNoMessage(20);
  });

  it("ends the peer's stream", async () => {
    const { client, server } = await connected();
    await client.close();
    await server.expectEnd();
  });

  it('closes a client that never connected, and later calls reject with ClientClosedError', async () => {
    const { client, server } = scripted();
    await client.close();
    await server.expectEnd();
    await expect(client.connect()).rejects.toBeInstanceOf(ClientClosedError);
  });
});

describe('connection lost', () => {
  it('rejects pending calls with ClientClosedError saying the server closed the connection', async () => {
    const { client, server } = await connected();
    const calling = client.callTool('slow').catch((e: unknown) => e);
    await server.expect('tools/call');
    await server.close();
    const error = await calling;
    expect(error).toBeInstanceOf(ClientClosedError);
    expect((error as Error).message).toMatch(/server closed the connection/);
  });

  it('rejects later calls with ClientClosedError', async () => {
    const { client, server } = await connected();
    await server.close();
    await server.ended;
    await expect(client.callTool('t')).rejects.toBeInstanceOf(ClientClosedError);
    await expect(client.listResources()).rejects.toBeInstanceOf(ClientClosedError);
  });

  it('aborts running handler signals when the server closes the connection', async () => {
    const started = deferred<AbortSignal>();
    const { server } = await connected({
      sampling: async (_request, { signal }) => {
        started.resolve(signal);
        await aborted(signal);
        throw signal.reason;
      },
    });
    await server.send({ jsonrpc: '2.0', id: 'held', method: 'sampling/createMessage', params: SAMPLE_PARAMS });
    const signal = await started.promise;
    await server.close();
    await aborted(signal);
    expect(signal.reason).toBeInstanceOf(ClientClosedError);
  });
});
