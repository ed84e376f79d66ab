import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { beforeEach, describe, expect, it } from 'vitest';
import { TransportError } from '../../../src/index.js';
import { useClients, useNodeServer } from './harness.js';

// An SSE event id that no Last-Event-ID header can carry as it is (a code unit past
// U+00FF, a control character, a space at either end) is ignored as if the event had
// none: the last id that can be sent back stays the one a stream resumes from.

/** Ids a header cannot carry unchanged: `Headers.set` throws on the first two, trims the last two. */
const UNSENDABLE = ['\u{1F4A5}', 'a\u0001b', '7 ', '\t7'];

const SERVER_INFO = { name: 'unsendable-event-id', version: '1.0.0' };
const note = (data: string) =>
  JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data } });

/**
 * A stateless 2025-11-25 MCP server on node:http, written by hand: the call `cut`
 * sends an event with id `firstId` (1), then an event with the id under test and ends
 * before the answer, which a GET resuming it gets; the standalone GET sends the
 * same two events and ends. Every GET's Last-Event-ID is kept, in order.
 */
const state = { firstId: '1', badId: '', pending: undefined as unknown, lastEventIds: [] as (string | undefined)[] };
const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
  const sse = () => res.writeHead(200, { 'content-type': 'text/event-stream' });
  const twoEvents = (data: string) =>
    `id: ${state.firstId}\ndata: ${note(`${data} 1`)}\n\nid: ${state.badId}\ndata: ${note(`${data} 2`)}\n\n`;
  if (req.method === 'GET') {
    const lastEventId = req.headers['last-event-id'];
    state.lastEventIds.push(typeof lastEventId === 'string' ? lastEventId : undefined);
    sse();
    if (state.pending !== undefined && lastEventId !== undefined) {
      const answer = { jsonrpc: '2.0', id: state.pending, result: { content: [{ type: 'text', text: 'resumed' }] } };
      state.pending = undefined;
      return void res.end(`data: ${JSON.stringify(answer)}\n\n`);
    }
    return void res.end(twoEvents('get'));
  }
  let text = '';
  for await (const piece of req) text += piece;
  const { id, method, params } = JSON.parse(text) as { id?: unknown; method: string; params?: { name?: string } };
  if (id === undefined) return void res.writeHead(202).end();
  const json = (message: object) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, ...message }));
  if (method === 'initialize') {
    return json({ result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: SERVER_INFO } });
  }
  if (method === 'tools/call' && params?.name === 'cut') {
    state.pending = id;
    sse();
    return void res.end(twoEvents('post'));
  }
  json({ error: { code: -32601, message: 'Method not found' } });
});

const origin = useNodeServer(server);
beforeEach(() => {
  state.firstId = '1';
  state.pending = undefined;
  state.lastEventIds = [];
});

const open = useClients();
const client = { protocolVersion: '2025-11-25', requestTimeout: 4000 } as const;

describe('an SSE event id that no Last-Event-ID header can carry', () => {
  it.each(UNSENDABLE)('is ignored on a call stream: it resumes from the id before it (%j)', async (badId) => {
    state.badId = badId;
    const {
      client: mcp,
      notifications,
      errors,
    } = await open(`${origin()}/mcp`, { transport: { standaloneStream: false }, client });
    expect((await mcp.callTool('cut')).text).toBe('resumed');
    expect(state.lastEventIds).toEqual(['1']);
    expect(notifications.map((n) => (n.params as { data: string }).data)).toEqual(['post 1', 'post 2']);
    expect(errors).toEqual([]);
  });

  it('fails the call with TransportError, not TypeError, when no id of its stream can be sent back', async () => {
    state.firstId = '\u{1F4A5}';
    state.badId = '\u{1F4A5}';
    const { client: mcp } = await open(`${origin()}/mcp`, { transport: { standaloneStream: false }, client });
    const error = await mcp.callTool('cut').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toContain('ended before the response');
    expect(state.lastEventIds).toEqual([]);
  });

  it.each(UNSENDABLE)('is ignored on the GET stream: it reopens from the id before it (%j)', async (badId) => {
    state.badId = badId;
    const { notifications, errors } = await open(`${origin()}/mcp`, {
      transport: { streamReconnect: { minDelay: 20 } },
      client,
    });
    await expect.poll(() => state.lastEventIds.length, { timeout: 3000 }).toBeGreaterThanOrEqual(2);
    expect(state.lastEventIds.slice(0, 2)).toEqual([undefined, '1']);
    expect(notifications.map((n) => (n.params as { data: string }).data).slice(0, 2)).toEqual(['get 1', 'get 2']);
    expect(errors).toEqual([]);
  });
});

// An empty `id:` resets the last event ID (HTML, server-sent events, §9.2.6), and an
// empty last event ID is never sent (§9.2.4: the header goes out only when it is not empty).
describe('an empty SSE event id', () => {
  it('resets the last event id on a call stream: nothing to resume from, the call fails with TransportError', async () => {
    state.badId = '';
    const { client: mcp } = await open(`${origin()}/mcp`, { transport: { standaloneStream: false }, client });
    const error = await mcp.callTool('cut').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransportError);
    expect(state.lastEventIds).toEqual([]);
  });

  it('resets the last event id on the GET stream: it reopens without Last-Event-ID', async () => {
    state.badId = '';
    const { errors } = await open(`${origin()}/mcp`, { transport: { streamReconnect: { minDelay: 20 } }, client });
    await expect.poll(() => state.lastEventIds.length, { timeout: 3000 }).toBeGreaterThanOrEqual(2);
    expect(state.lastEventIds.slice(0, 2)).toEqual([undefined, undefined]);
    expect(errors).toEqual([]);
  });
});
