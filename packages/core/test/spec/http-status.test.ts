import { describe, expect, it } from 'vitest';
import { RpcError } from '../../src/index.js';
import { useClients, useHttpServers } from '../transport/http/harness.js';

const servers = useHttpServers();
const open = useClients();

/** Checklist §3.5 (HTTP status codes): a refusal whose body is a JSON-RPC error answers the call with that error. */
describe('spec: HTTP status codes', () => {
  it('a 404 whose body is a -32601 error fails that call with RpcError -32601, not a session renewal or HttpError', async () => {
    // The client's ids count up from 1: server/discover (refused), initialize, then this tools/call.
    const body = { jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'Method not found: tools/call' } };
    const fault = await servers.scenario({
      inner: 'stateless',
      rules: [{ match: { method: 'tools/call' }, action: { type: 'status', status: 404, body } }],
    });
    const { client } = await open(fault.mcp);
    const error = await client.callTool('echo', { text: 'x' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).code).toBe(-32601);
    expect((await fault.stats()).methods).toEqual(expect.objectContaining({ 'tools/call': 1, initialize: 1 }));
  });

  it('takes a 405 to the session DELETE as the server keeping sessions to itself: close() resolves, nothing reported', async () => {
    const fault = await servers.scenario({
      inner: 'stateful',
      rules: [{ match: { httpMethod: 'DELETE' }, action: { type: 'status', status: 405 } }],
    });
    const { client, calls, errors } = await open(fault.mcp);
    await client.listTools();
    await expect(client.close()).resolves.toBeUndefined();
    expect(calls.filter((call) => call.httpMethod === 'DELETE')).toHaveLength(1);
    expect(errors).toEqual([]);
  });
});
