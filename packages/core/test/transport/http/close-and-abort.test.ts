import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStandaloneGet, until, useClients } from './harness.js';
import { startWatchedFaultServer, type WatchedFaultServer } from './watched-servers.js';

let server: WatchedFaultServer;
beforeAll(async () => {
  server = await startWatchedFaultServer();
});
afterAll(() => server.close());
const open = useClients();

describe('close()', () => {
  it('sends DELETE with the session id', async () => {
    const scenario = server.scenario({ inner: 'stateful' });
    const { client, transport } = await open(scenario.mcp);
    const sessionId = transport.sessionId;
    await client.close();
    const stats = await scenario.stats();
    const deletes = stats.requests.filter((request) => request.httpMethod === 'DELETE');
    expect(deletes).toHaveLength(1);
    expect(deletes[0]?.headers['mcp-session-id']).toBe(sessionId);
    expect(stats.sessions).toBe(0);
  });

  it('is bounded when the DELETE never gets an answer', async () => {
    const scenario = server.scenario({
      inner: 'stateful',
      rules: [{ match: { httpMethod: 'DELETE' }, action: { type: 'stall' } }],
    });
    const { client } = await open(scenario.mcp, { transport: { closeTimeout: 200 } });
    const started = performance.now();
    await client.close();
    expect(performance.now() - started).toBeLessThan(1500);
    await until(() => !server.openResponses().some((response) => response.startsWith('DELETE')));
  });

  it('closes every open stream, including one the server holds open after its answer', async () => {
    const scenario = server.scenario({
      inner: 'stateful',
      rules: [{ match: { method: 'tools/call' }, action: { type: 'hold-open', commentEveryMs: 20 } }],
    });
    const { client, calls } = await open(scenario.mcp);
    await until(() => openStandaloneGet(calls));
    expect((await client.callTool('echo', { text: 'held' })).text).toBe('held');
    const held = server.openResponses().filter((response) => response.includes(scenario.id));
    expect(held.sort()).toEqual([`GET /faults/${scenario.id}/mcp`, `POST /faults/${scenario.id}/mcp`]);

    await client.close();
    await until(() => !server.openResponses().some((response) => response.includes(scenario.id)), 1000);
  });

  it('is idempotent: a second close() resolves and sends nothing more', async () => {
    const scenario = server.scenario({ inner: 'stateful' });
    const { client, transport } = await open(scenario.mcp);
    await Promise.all([client.close(), client.close()]);
    await client.close();
    await transport.close();
    const deletes = (await scenario.stats()).requests.filter((request) => request.httpMethod === 'DELETE');
    expect(deletes).toHaveLength(1);
  });
});

describe('abort', () => {
  it('closes the aborted call’s POST stream and sends notifications/cancelled', async () => {
    const scenario = server.scenario({ inner: 'stateful' });
    const { client, calls } = await open(scenario.mcp, { transport: { standaloneStream: false } });
    const controller = new AbortController();
    const call = client.callTool(
      'slow',
      { steps: 100, intervalMs: 20 },
      { signal: controller.signal, onProgress: () => controller.abort() },
    );
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    await until(() => !server.openResponses().some((response) => response.startsWith(`POST /faults/${scenario.id}`)));
    await until(async () => (await scenario.stats()).methods['notifications/cancelled'] === 1);

    const id = calls.find((entry) => entry.rpcMethod === 'tools/call')?.message?.id;
    const cancelled = calls.find((entry) => entry.rpcMethod === 'notifications/cancelled')?.message;
    expect(id).toBeDefined();
    expect(cancelled?.params).toMatchObject({ requestId: id });
    expect((await scenario.stats()).executions).toBe(1);
  });

  it('closes the POST of a call that timed out, instead of leaving it open until close()', async () => {
    const scenario = server.scenario({
      inner: 'stateful',
      rules: [{ match: { method: 'tools/call', times: 1 }, action: { type: 'stall' } }],
    });
    const { client } = await open(scenario.mcp, { transport: { standaloneStream: false } });
    const error = await client.callTool('echo', { text: 'x' }, { timeout: 200 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'TimeoutError' });
    await until(
      () => !server.openResponses().some((response) => response.startsWith(`POST /faults/${scenario.id}`)),
      1000,
    );
  });
});
