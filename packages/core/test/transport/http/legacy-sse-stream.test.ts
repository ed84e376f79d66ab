import { createServer, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError, ProtocolError, TransportError } from '../../../src/index.js';
import { until, useClients } from './harness.js';

const open = useClients();

/** What the HTTP+SSE server below does with its event stream. */
type StreamPlan = 'endpoint-then-end-on-call' | 'never-endpoint' | 'unparsable-endpoint';

interface LegacyServer {
  readonly url: string;
  /** GET streams the server holds open now. */
  readonly openStreams: () => number;
  close(): Promise<void>;
}

/**
 * A 2024-11-05 HTTP+SSE server on node:http that misbehaves: POSTs to `/mcp`
 * get 405 (so the client falls back), GET `/mcp` opens the event stream, and
 * `/messages` takes the client's messages, answering on the stream. With
 * `endpoint-then-end-on-call` it ends the stream when a `tools/call` comes in;
 * with `never-endpoint` the stream stays open with comments and never names
 * the endpoint; with `unparsable-endpoint` it names one that is no URL.
 */
async function startLegacyServer(plan: StreamPlan): Promise<LegacyServer> {
  const streams = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    if (req.url === '/mcp' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      streams.add(res);
      res.on('close', () => streams.delete(res));
      if (plan === 'never-endpoint') {
        const timer = setInterval(() => res.write(': not yet\n\n'), 50);
        res.on('close', () => clearInterval(timer));
      } else if (plan === 'unparsable-endpoint') {
        res.write('event: endpoint\ndata: http://[not-a-host/messages\n\n');
      } else {
        res.write('event: endpoint\ndata: /messages\n\n');
      }
      return;
    }
    if (req.url === '/messages' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        res.writeHead(202).end();
        const message = JSON.parse(body) as { id?: number; method?: string };
        for (const stream of streams) {
          if (message.method === 'tools/call') stream.end();
          if (message.method !== 'initialize') continue;
          const result = {
            protocolVersion: '2024-11-05',
            capabilities: { tools: {} },
            serverInfo: { name: 'ends-its-stream', version: '1.0.0' },
          };
          stream.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n\n`);
        }
      });
      return;
    }
    res.writeHead(405, { allow: 'GET' }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    openStreams: () => streams.size,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let server: LegacyServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the HTTP+SSE event stream', () => {
  it('fails a pending call and the next ones with TransportError at once when the stream ends', async () => {
    server = await startLegacyServer('endpoint-then-end-on-call');
    const { client, transport } = await open(server.url, { transport: { standaloneStream: false } });
    expect(transport.usesLegacySse).toBe(true);
    const started = performance.now();
    const error = await client.callTool('echo', { text: 'lost' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toContain('HTTP+SSE stream');
    // The client's request timeout is 5 s: the call did not wait for it.
    expect(performance.now() - started).toBeLessThan(2000);
    await expect(client.listTools()).rejects.toMatchObject({ message: expect.stringContaining('HTTP+SSE stream') });
  });

  it('closes a stream that never names its endpoint once initialize gives up', async () => {
    server = await startLegacyServer('never-endpoint');
    const { client } = await open(server.url, { connect: false });
    await expect(client.connect({ timeout: 300 })).rejects.toMatchObject({ name: 'TimeoutError' });
    const opened = server;
    await until(() => opened.openStreams() === 0, 2000);
  });

  it('fails connect() with a ProtocolError naming an endpoint that is no URL, and closes the stream', async () => {
    server = await startLegacyServer('unparsable-endpoint');
    const { client } = await open(server.url, { connect: false });
    const error = await client.connect().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as Error).message).toContain('"http://[not-a-host/messages" of');
    expect((error as Error).message).toContain('is not a URL');
    const opened = server;
    await until(() => opened.openStreams() === 0, 2000);
  });
});

describe('a URL that serves neither transport', () => {
  let refusing: Server | undefined;
  afterEach(async () => {
    refusing?.closeAllConnections();
    await new Promise((resolve) => (refusing ? refusing.close(resolve) : resolve(undefined)));
    refusing = undefined;
  });

  it("fails connect() with the refused POST's HttpError, the fallback GET's refusal as its cause", async () => {
    // What an Express app answers on a path without a route, whatever the method.
    refusing = createServer((req, res) => {
      req.resume();
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`Cannot ${req.method} ${req.url}`);
    });
    await new Promise<void>((resolve) => refusing?.listen(0, '127.0.0.1', resolve));
    const address = refusing.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/wrong`;
    const { client } = await open(url, { connect: false });
    const error = await client.connect().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 404, bodyExcerpt: 'Cannot POST /wrong' });
    expect((error as Error).cause).toBeInstanceOf(HttpError);
    expect((error as Error).cause).toMatchObject({ status: 404, bodyExcerpt: 'Cannot GET /wrong' });
  });
});
