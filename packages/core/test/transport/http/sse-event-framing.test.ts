import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { LimitError, TransportError } from '../../../src/index.js';
import { FIELDS_ROOM, readSse } from '../../../src/transport/http/event-stream/sse-events.js';
import { useClients, useNodeServer } from './harness.js';

// SSE framing over a real HTTP body: line ends (a lone CR is one, HTML,
// server-sent events, §9.2.4) and maxMessageBytes, wherever the server's
// writes cut the bytes.

/** Writes the SSE answer to one `tools/call` of the tool `sse`; it may hold the stream open. */
type Answer = (res: ServerResponse, id: unknown) => void | Promise<void>;

/**
 * A stateless 2025-11-25 MCP server on node:http, written by hand so a test
 * frames SSE bodies as it likes: `echo` answers JSON, `sse` whatever `answer`
 * writes; `GET /endless-comment` is one comment line that never ends.
 */
function sseServer(): { server: Server; answer: { current: Answer }; streams: Promise<void>[] } {
  const answer: { current: Answer } = { current: (res) => void res.end() };
  /** One promise per SSE response, settled when it closes (ended, or the client went away). */
  const streams: Promise<void>[] = [];
  const json = (res: ServerResponse, message: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message));
  };
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const stream = () => streams.push(new Promise((resolve) => res.on('close', resolve)));
    if (req.method === 'GET' && req.url === '/endless-comment') {
      stream();
      return endlessComment(res);
    }
    if (req.method !== 'POST') return void res.writeHead(405).end();
    let text = '';
    for await (const piece of req) text += piece;
    type Message = { id?: unknown; method: string; params?: Record<string, unknown> };
    const { id, method, params } = JSON.parse(text) as Message;
    if (id === undefined) return void res.writeHead(202).end();
    if (method === 'initialize') {
      const result = { protocolVersion: params?.protocolVersion, capabilities: { tools: {} }, serverInfo: SERVER_INFO };
      return json(res, { jsonrpc: '2.0', id, result });
    }
    if (method === 'tools/call' && params?.name === 'echo') {
      return json(res, { jsonrpc: '2.0', id, result: textResult((params.arguments as { text: string }).text) });
    }
    if (method === 'tools/call' && params?.name === 'sse') {
      stream();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      return answer.current(res, id);
    }
    json(res, { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
  });
  return { server, answer, streams };
}

/** Writes `: xxxx…` without a line end, honouring backpressure, until the client goes away. */
async function endlessComment(res: ServerResponse): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const piece = 'x'.repeat(8192);
  res.write(':');
  while (!res.destroyed) {
    if (!res.write(piece)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
  }
}

const SERVER_INFO = { name: 'sse-framing', version: '1.0.0' };
const textResult = (text: string) => ({ content: [{ type: 'text', text }] });
const response = (id: unknown, text: string) => JSON.stringify({ jsonrpc: '2.0', id, result: textResult(text) });

/** Writes `text` in pieces of `size` characters, one write each, a millisecond apart. */
async function writeCut(res: ServerResponse, text: string, size: number): Promise<void> {
  for (let at = 0; at < text.length; at += size) {
    res.write(text.slice(at, at + size));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

const { server, answer, streams } = sseServer();
const origin = useNodeServer(server);

const open = useClients();
const LIMIT = 4096;
const connect = () =>
  open(`${origin()}/mcp`, {
    transport: { maxMessageBytes: LIMIT, standaloneStream: false, maxResumeAttempts: 0 },
    client: { protocolVersion: '2025-11-25', requestTimeout: 4000 },
  });

describe('SSE line ends over HTTP', () => {
  it('answers a call whose SSE stream ends in a lone CR right after the answer', async () => {
    const { client } = await connect();
    answer.current = (res, id) => void res.end(`data: ${response(id, 'ended by CR')}\r\r`);
    expect((await client.callTool('sse')).text).toBe('ended by CR');
  });

  it('answers at once a call whose answer a CR completes at the end of a write, the stream held open, and lets the stream go', async () => {
    const { client } = await connect();
    answer.current = (res, id) => void res.write(`data: ${response(id, 'held open')}\r\r`);
    const started = performance.now();
    expect((await client.callTool('sse')).text).toBe('held open');
    // It used to wait for a line end that never came: the call's timeout (4 s).
    expect(performance.now() - started).toBeLessThan(2000);
    // The client cancels the open stream after a short linger.
    await streams.at(-1);
    expect((await client.callTool('echo', { text: 'next' })).text).toBe('next');
  });

  it('reads a CR LF cut between two writes as one line end: two data lines of one event', async () => {
    const { client } = await connect();
    answer.current = async (res, id) => {
      const [head, tail] = [`data: {"jsonrpc":"2.0",\r`, `\ndata: ${response(id, 'joined').slice(17)}\r\n\r\n`];
      await writeCut(res, head, head.length);
      res.end(tail);
    };
    expect((await client.callTool('sse')).text).toBe('joined');
  });
});

describe('maxMessageBytes on SSE events, however the writes cut them', () => {
  /** An answer whose JSON is exactly `length` characters long. */
  const sized = (id: unknown, length: number) => {
    const text = 'y'.repeat(length - response(id, '').length);
    return { json: response(id, text), text };
  };

  it.each([
    ['in one write', LIMIT * 4],
    ['in 100-character writes', 100],
    ['in 7-character writes', 7],
  ])('fails an answer one character past the limit written %s, and the next call works', async (_, size) => {
    const { client } = await connect();
    answer.current = async (res, id) => {
      await writeCut(res, `data: ${sized(id, LIMIT + 1).json}\n\n`, size);
      res.end();
    };
    const error = await client.callTool('sse').catch((caught: unknown) => caught);
    // The stream breaks with no event id to resume from: a TransportError caused by the LimitError.
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).cause).toBeInstanceOf(LimitError);
    expect((error as Error).cause).toMatchObject({ limit: 'maxMessageBytes', value: LIMIT });
    expect((await client.callTool('echo', { text: 'next' })).text).toBe('next');
  });

  it.each([
    ['in one write', LIMIT * 4],
    ['in 100-character writes', 100],
  ])('delivers an answer exactly at the limit written %s', async (_, size) => {
    const { client } = await connect();
    let expected = '';
    answer.current = async (res, id) => {
      const { json, text } = sized(id, LIMIT);
      expected = text;
      await writeCut(res, `data: ${json}\n\n`, size);
      res.end();
    };
    expect((await client.callTool('sse')).text).toBe(expected);
  });

  it('delivers an answer at the limit after a comment and an id that take up to 64 KiB, cut into 1,000-character writes', async () => {
    const { client } = await connect();
    let expected = '';
    answer.current = async (res, id) => {
      const { json, text } = sized(id, LIMIT);
      expected = text;
      const fields = `: ${'c'.repeat(FIELDS_ROOM / 2)}\nid: ${'i'.repeat(FIELDS_ROOM / 2 - 16)}\n`;
      await writeCut(res, `${fields}data: ${json}\n\n`, 1000);
      res.end();
    };
    expect((await client.callTool('sse')).text).toBe(expected);
  });

  it('fails a comment line that never ends once it passes the limit plus 64 KiB, reading little more', async () => {
    const body = (await fetch(`${origin()}/endless-comment`)).body;
    if (!body) throw new Error('no body');
    let pulled = 0;
    const counted = body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(piece, controller) {
          pulled += piece.byteLength;
          controller.enqueue(piece);
        },
      }),
    );
    const events: unknown[] = [];
    const failure = await readSse(counted, {
      maxBytes: LIMIT,
      onRetry: () => {},
      onEvent: (event) => {
        events.push(event);
        return false;
      },
      track: () => () => {},
    });
    expect(failure).toBeInstanceOf(LimitError);
    expect(failure).toMatchObject({ limit: 'maxMessageBytes', value: LIMIT });
    expect(events).toEqual([]);
    // What the parser buffered passed LIMIT + FIELDS_ROOM, and reading stopped within a few chunks of it.
    expect(pulled).toBeGreaterThan(LIMIT + FIELDS_ROOM);
    expect(pulled).toBeLessThan(LIMIT + FIELDS_ROOM + 256 * 1024);
    // The reader cancelled the body: the server sees the client go.
    await streams.at(-1);
  });
});
