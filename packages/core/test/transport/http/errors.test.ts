import { describe, expect, it } from 'vitest';
import { HttpError, McpError, ProtocolError } from '../../../src/index.js';
import { useClients, useHttpServers } from './harness.js';
import type { FaultAction } from './test-servers.js';

const servers = useHttpServers();
const open = useClients();

/** A client whose first `tools/call` meets `action`; every later call goes to the real server. */
async function firstCallMeets(action: FaultAction, maxMessageBytes?: number) {
  const scenario = await servers.scenario({
    inner: 'stateful',
    rules: [{ match: { method: 'tools/call', times: 1 }, action }],
  });
  const connected = await open(scenario.mcp, {
    transport: { standaloneStream: false, ...(maxMessageBytes !== undefined && { maxMessageBytes }) },
  });
  return { scenario, ...connected };
}

/** The failure of the first call, then proof that the client still works. */
async function failsOnceThenWorks(client: Awaited<ReturnType<typeof firstCallMeets>>['client']): Promise<unknown> {
  const error = await client.callTool('echo', { text: 'first' }, { timeout: 2000 }).catch((caught: unknown) => caught);
  expect((await client.callTool('echo', { text: 'next' })).text).toBe('next');
  return error;
}

describe('HTTP errors', () => {
  it('fails with HttpError carrying the status, the URL and a bounded excerpt of the body', async () => {
    const body = `${'e'.repeat(600)}${'z'.repeat(2000)}`;
    const { client, scenario } = await firstCallMeets({ type: 'status', status: 500, body });
    const error = await failsOnceThenWorks(client);
    expect(error).toBeInstanceOf(HttpError);
    const http = error as HttpError;
    expect(http.status).toBe(500);
    expect(http.url).toBe(scenario.mcp);
    expect(http.bodyExcerpt).toBe(`${'e'.repeat(512)}…`);
    expect(http.message).toContain('500');
    expect(http.message).toContain(scenario.mcp);
    expect(http.message).not.toContain('z');
  });
});

describe('malformed answers', () => {
  it('fails only that call with ProtocolError when a JSON body is not JSON', async () => {
    const { client } = await firstCallMeets({ type: 'malformed', kind: 'not-json' });
    expect(await failsOnceThenWorks(client)).toBeInstanceOf(ProtocolError);
  });

  it('fails only that call with ProtocolError when a JSON body is not a JSON-RPC response', async () => {
    const { client } = await firstCallMeets({ type: 'malformed', kind: 'not-jsonrpc' });
    expect(await failsOnceThenWorks(client)).toBeInstanceOf(ProtocolError);
  });

  it('fails only that call with ProtocolError when an SSE event is not JSON', async () => {
    const { client } = await firstCallMeets({ type: 'malformed', kind: 'sse-bad-data' });
    expect(await failsOnceThenWorks(client)).toBeInstanceOf(ProtocolError);
  });

  it('fails only that call, naming the content type, when the answer is neither JSON nor SSE', async () => {
    const { client } = await firstCallMeets({ type: 'status', status: 200, body: 'plain text' });
    const error = await failsOnceThenWorks(client);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as Error).message).toContain('text/plain');
  });
});

describe('limits', () => {
  it.each(['json', 'sse'] as const)(
    'fails only that call, naming maxMessageBytes, when a %s answer is larger',
    async (as) => {
      const { client } = await firstCallMeets({ type: 'oversized', bytes: 300_000, as }, 100_000);
      const error = await failsOnceThenWorks(client);
      expect(error).toBeInstanceOf(McpError);
      expect((error as Error).message).toContain('maxMessageBytes');
    },
  );

  it('fails a stalled call with TimeoutError and keeps working', async () => {
    const { client } = await firstCallMeets({ type: 'stall' });
    const error = await client.callTool('echo', { text: 'x' }, { timeout: 300 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('TimeoutError');
    expect((await client.callTool('echo', { text: 'next' })).text).toBe('next');
  });
});
