import { describe, expect, it } from 'vitest';
import { type Client, ResourceNotFoundError, UnsupportedVersionError } from '../../../src/index.js';
import { hubUrl, until, useClients, useHttpServers, useStdio } from './modern-harness.js';

const servers = useHttpServers();
const open = useClients();
const spawn = useStdio();

/** Starts a long `slow` call and aborts it at its first progress step; resolves with the rejection. */
async function abortedCall(client: Client): Promise<unknown> {
  const controller = new AbortController();
  return client
    .callTool(
      'slow',
      { steps: 200, intervalMs: 20 },
      { signal: controller.signal, onProgress: () => controller.abort() },
    )
    .catch((error: unknown) => error);
}

const counts = async (client: Client) =>
  JSON.parse((await client.callTool('request-counts')).text) as Record<string, number>;

describe('cancellation in 2026-07-28', () => {
  it('HTTP: aborting a call closes its stream and sends no notifications/cancelled', async () => {
    const { client, calls } = await open(hubUrl(servers.modes, 'cancel'));
    const error = await abortedCall(client);
    expect((error as Error).name).toBe('AbortError');
    const call = calls.find((c) => c.rpcMethod === 'tools/call');
    expect(call?.signal?.aborted).toBe(true);
    expect((await client.callTool('echo', { text: 'still here' })).text).toBe('still here');
    expect(calls.map((c) => c.rpcMethod)).not.toContain('notifications/cancelled');
    expect((await counts(client))['notifications/cancelled']).toBeUndefined();
  });

  it('stdio: aborting a call sends notifications/cancelled naming its request id', async () => {
    const { client, tap } = await spawn('v2');
    const error = await abortedCall(client);
    expect((error as Error).name).toBe('AbortError');
    const call = tap.sent.find((message) => 'method' in message && message.method === 'tools/call');
    await until(async () => (await counts(client))['notifications/cancelled'] === 1);
    const cancelled = tap.sent.find((message) => 'method' in message && message.method === 'notifications/cancelled');
    expect(cancelled).toMatchObject({ params: { requestId: (call as { id: number }).id } });
  });
});

describe('errors from a 2026-07-28 server', () => {
  it('-32022 to the probe is an UnsupportedVersionError listing what the server supports, with no fallback to initialize', async () => {
    // The first request the client sends is the server/discover probe, id 1.
    const body = {
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32022,
        message: 'Unsupported protocol version',
        data: { supported: ['2027-01-01'], requested: '2026-07-28' },
      },
    };
    const fault = await servers.scenario({
      rules: [{ match: { method: 'server/discover' }, action: { type: 'status', status: 400, body } }],
    });
    const { client } = await open(fault.mcp, { connect: false });
    const error = await client.connect().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnsupportedVersionError);
    expect((error as UnsupportedVersionError).supported).toEqual(['2027-01-01']);
    const stats = await fault.stats();
    expect(stats.methods).toEqual({ 'server/discover': 1 });
  });

  it('readResource of a missing resource on /v2 is a ResourceNotFoundError naming the URI', async () => {
    const { client } = await open(hubUrl(servers.modes, 'missing'));
    const error = await client.readResource('test://static/text/99').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResourceNotFoundError);
    expect((error as ResourceNotFoundError).uri).toBe('test://static/text/99');
    expect((error as ResourceNotFoundError).code).toBe(-32602);
  });
});
