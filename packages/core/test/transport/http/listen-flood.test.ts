import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { beforeEach, describe, expect, it } from 'vitest';
import { type ListenEvent, McpError } from '../../../src/index.js';
import { until, useClients, useNodeServer } from './harness.js';

const SERVER_INFO = { name: 'listen-flood', version: '1.0.0' };

/**
 * A stateless 2025-11-25 MCP server on node:http, written by hand: the tool
 * `flood` writes `count` numbered `notifications/tools/list_changed` on the open
 * standalone GET stream, in one write, then answers with how many it wrote in all.
 */
const state = { get: undefined as ServerResponse | undefined, written: 0 };
const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
  if (req.method === 'GET') {
    state.get = res.writeHead(200, { 'content-type': 'text/event-stream' });
    return void res.flushHeaders();
  }
  let text = '';
  for await (const piece of req) text += piece;
  const { id, method, params } = JSON.parse(text) as {
    id?: unknown;
    method: string;
    params?: { name?: string; arguments?: { count?: number } };
  };
  if (id === undefined) return void res.writeHead(202).end();
  const json = (message: object) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, ...message }));
  if (method === 'initialize') {
    const capabilities = { tools: { listChanged: true } };
    return json({ result: { protocolVersion: '2025-11-25', capabilities, serverInfo: SERVER_INFO } });
  }
  if (method === 'tools/call' && params?.name === 'flood') {
    let events = '';
    for (let n = 0; n < (params.arguments?.count ?? 0); n++) {
      const note = { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { seq: state.written++ } };
      events += `data: ${JSON.stringify(note)}\n\n`;
    }
    state.get?.write(events);
    return json({ result: { content: [{ type: 'text', text: String(state.written) }] } });
  }
  json({ error: { code: -32601, message: 'Method not found' } });
});

const origin = useNodeServer(server);
beforeEach(() => {
  state.get = undefined;
  state.written = 0;
});

const open = useClients();
const seq = (event: ListenEvent | undefined) => event?.params?.seq;

describe('a notification flood to a listen() subscription nobody reads', () => {
  it('keeps limits.maxQueuedEvents (default 1000) of 10,000, reports the drop once, and delivers later events once read', async () => {
    const { client, errors, notifications } = await open(`${origin()}/mcp`, {
      client: { protocolVersion: '2025-11-25' },
    });
    const subscription = await client.listen({ toolsListChanged: true });
    await until(() => state.get !== undefined);
    await client.callTool('flood', { count: 10_000 });
    // The client saw every one of them (onNotification); the subscription keeps what fits.
    await until(() => notifications.length === 10_000, 10_000);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(McpError);
    expect(errors[0]?.message).toMatch(/limits\.maxQueuedEvents/);

    const events = subscription[Symbol.asyncIterator]();
    const kept: unknown[] = [];
    for (let n = 0; n < 1000; n++) kept.push(seq((await events.next()).value));
    expect(kept).toEqual(Array.from({ length: 1000 }, (_, n) => n));

    // Read up: what comes next is delivered, the dropped 9,000 are gone.
    await client.callTool('flood', { count: 3 });
    expect([(await events.next()).value, (await events.next()).value, (await events.next()).value].map(seq)).toEqual([
      10_000, 10_001, 10_002,
    ]);
    expect(errors).toHaveLength(1);
    await subscription.close();
  });

  it('a smaller limits.maxQueuedEvents (10) holds 10; a new flood after the reader caught up is reported again', async () => {
    const { client, errors, notifications } = await open(`${origin()}/mcp`, {
      client: { protocolVersion: '2025-11-25', limits: { maxQueuedEvents: 10 } },
    });
    const subscription = await client.listen({ toolsListChanged: true });
    await until(() => state.get !== undefined);
    await client.callTool('flood', { count: 50 });
    await until(() => notifications.length === 50);
    const events = subscription[Symbol.asyncIterator]();
    const kept: unknown[] = [];
    for (let n = 0; n < 10; n++) kept.push(seq((await events.next()).value));
    expect(kept).toEqual(Array.from({ length: 10 }, (_, n) => n));
    expect(errors.map((error) => error.message)).toEqual([expect.stringMatching(/10 events wait unread/)]);

    await client.callTool('flood', { count: 50 });
    await until(() => notifications.length === 100);
    expect(errors).toHaveLength(2);
    expect(seq((await events.next()).value)).toBe(50);
    await subscription.close();
  });
});
