import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { beforeEach, describe, expect, it } from 'vitest';
import { type AuthProvider, type AuthRequest, HttpError, LimitError } from '../../../src/index.js';
import { useClients, useNodeServer } from './harness.js';

// StreamableHttpTransportOptions.auth takes any AuthProvider, not only an OAuthProvider:
// here an API-key scheme whose first key is stale, over a hand-written node:http server.

const SERVER_INFO = { name: 'api-key-server', version: '1.0.0' };

/** Every request's HTTP method (and JSON-RPC method, for a POST) and x-api-key, in order. */
const seen: { method: string; key: string | undefined }[] = [];

/** A stateless 2025-11-25 MCP server that refuses (401) every request without `x-api-key: good`; no GET stream. */
const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
  const key = req.headers['x-api-key'];
  let text = '';
  for await (const piece of req) text += piece;
  const { id, method, params } = (text ? JSON.parse(text) : {}) as {
    id?: unknown;
    method?: string;
    params?: { arguments?: object };
  };
  seen.push({ method: `${req.method} ${method ?? ''}`.trim(), key: typeof key === 'string' ? key : undefined });
  if (key !== 'good') return void res.writeHead(401).end();
  if (req.method !== 'POST') return void res.writeHead(405).end();
  if (id === undefined) return void res.writeHead(202).end();
  const result =
    method === 'initialize'
      ? { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: SERVER_INFO }
      : { content: [{ type: 'text', text: JSON.stringify(params?.arguments) }] };
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result }));
});

const origin = useNodeServer(server);
const open = useClients();
beforeEach(() => {
  seen.length = 0;
});

/** An API-key provider: `stale` until the server refuses it, then `good`; it records what it was asked. */
function apiKeys() {
  const log = { given: [] as AuthRequest[], answered: [] as AuthRequest[] };
  /** The key each attempt carried: only a refusal of the stale key is worth a resend. */
  const carried = new WeakMap<AuthRequest, string>();
  let key = 'stale';
  const provider: AuthProvider = {
    async headers(request) {
      log.given.push(request);
      carried.set(request, key);
      return { 'x-api-key': key };
    },
    async onResponse(response, request) {
      log.answered.push(request);
      if (response.status !== 401 || carried.get(request) !== 'stale') return 'done';
      key = 'good';
      return 'retry';
    },
    async credentialKey() {
      return key;
    },
  };
  return { provider, log };
}

describe('a custom AuthProvider', () => {
  it('adds its headers to every request and has a refused one sent again when it says retry', async () => {
    const { provider, log } = apiKeys();
    const { client } = await open(`${origin()}/mcp`, { transport: { auth: provider } });
    const result = await client.callTool('echo', { text: 'hi' });
    expect(result.text).toBe('{"text":"hi"}');
    // Each request refused with the stale key was sent again, once, with the good one.
    const refused = seen.filter((request) => request.key === 'stale').map((request) => request.method);
    expect(refused.length).toBeGreaterThan(0);
    expect(new Set(refused).size).toBe(refused.length);
    for (const method of refused) expect(seen).toContainEqual({ method, key: 'good' });
    expect(seen.filter((request) => request.method === 'POST tools/call')).toEqual([
      { method: 'POST tools/call', key: 'good' },
    ]);
    // onResponse sees the very object headers() was given for that attempt.
    expect(log.answered.length).toBeGreaterThanOrEqual(2 * refused.length);
    expect(log.answered.filter((request) => !log.given.includes(request))).toEqual([]);
  });

  it("fails with the server's 401 when the provider says done, sending nothing again", async () => {
    const provider: AuthProvider = {
      headers: async () => ({ 'x-api-key': 'wrong' }),
      onResponse: async () => 'done',
      credentialKey: async () => 'wrong',
    };
    const { client } = await open(`${origin()}/mcp`, { transport: { auth: provider }, connect: false });
    await expect(client.connect()).rejects.toSatisfy((error) => error instanceof HttpError && error.status === 401);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((request) => request.key !== 'wrong')).toEqual([]);
    expect(new Set(seen.map((request) => request.method)).size).toBe(seen.length);
  });

  it('fails with LimitError maxAuthRetries after 5 resends when the provider never stops asking, the 401 as cause', async () => {
    const provider: AuthProvider = {
      headers: async () => ({ 'x-api-key': 'wrong' }),
      onResponse: async () => 'retry',
      credentialKey: async () => 'wrong',
    };
    // Pinned to the server's version: one handshake request, not an era probe and a fallback.
    const options = { transport: { auth: provider }, client: { protocolVersion: '2025-11-25' }, connect: false };
    const { client } = await open(`${origin()}/mcp`, options);
    const error = await client.connect().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ limit: 'maxAuthRetries', value: 5 });
    const cause = (error as LimitError).cause;
    expect(cause).toBeInstanceOf(HttpError);
    expect((cause as HttpError).status).toBe(401);
    // initialize and five resends of it; nothing after the limit.
    expect(seen).toEqual(Array.from({ length: 6 }, () => ({ method: 'POST initialize', key: 'wrong' })));
  });
});
