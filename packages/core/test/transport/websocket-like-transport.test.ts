import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Client, ClientClosedError, type ClientOptions, ProtocolError, TransportError } from '@mcp/core';
import { type JsonRpcMessage, MessageQueue, type Transport, type TransportEvent } from '@mcp/core/transport';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error test-servers/ is plain JS without declarations
import { createV1Server } from '../../../../test-servers/reference/v1-server.mjs';

// A transport written the way a third party would: only against the public
// `@mcp/core/transport` contract (and the error classes of `@mcp/core`), over a
// WebSocket. The socket here is an in-process one over a worker_threads
// MessageChannel; the server is the reference server on the official SDK.

/** The part of the WebSocket API the transport uses: a browser's, Deno's or Node's WebSocket fits it. */
interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { readonly data: unknown }) => void): void;
  addEventListener(
    type: 'close',
    listener: (event: { readonly code: number; readonly reason: string; readonly wasClean: boolean }) => void,
  ): void;
}

const OPEN = 1;

/**
 * MCP over a WebSocket: one JSON-RPC message per text frame. A clean close by
 * the server (1000) ends the inbound stream; any other close is a dropped
 * connection and fails it with a TransportError.
 */
class WebSocketTransport implements Transport {
  readonly #socket: WebSocketLike;
  readonly #inbound = new MessageQueue<TransportEvent>();
  readonly #opened: Promise<void>;
  #closed = false;

  constructor(socket: WebSocketLike) {
    this.#socket = socket;
    this.#opened =
      socket.readyState === OPEN
        ? Promise.resolve()
        : new Promise((resolve) => socket.addEventListener('open', () => resolve()));
    socket.addEventListener('message', ({ data }) => this.#receive(data));
    socket.addEventListener('close', ({ code, reason, wasClean }) => {
      if (this.#closed || (wasClean && code === 1000)) this.#inbound.end();
      else this.#inbound.fail(new TransportError(`the WebSocket closed with ${code}${reason ? `: ${reason}` : ''}`));
    });
  }

  async send(message: JsonRpcMessage): Promise<void> {
    if (this.#closed) throw new ClientClosedError('WebSocketTransport: closed');
    await this.#opened;
    if (this.#socket.readyState !== OPEN) throw new TransportError('the WebSocket is not open');
    this.#socket.send(JSON.stringify(message));
  }

  messages(): AsyncIterable<TransportEvent> {
    return this.#inbound;
  }

  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.#inbound.end();
      this.#socket.close(1000);
    }
    return Promise.resolve();
  }

  /** One frame: its JSON value, or an error that fails nothing but is reported. */
  #receive(data: unknown): void {
    try {
      this.#inbound.push({ type: 'message', message: JSON.parse(String(data)) });
    } catch (error) {
      const problem = new ProtocolError(
        `a WebSocket frame that is not JSON: ${String(data).slice(0, 80)}`,
        {},
        { cause: error },
      );
      this.#inbound.push({ type: 'error', error: problem });
    }
  }
}

/** A frame on the line: text, or the close handshake's code. */
type Frame = { readonly text: string } | { readonly close: number; readonly reason: string };

/**
 * One end of an in-process WebSocket over a MessagePort: text frames cross as
 * port messages, `close()` sends the close frame (a clean close for the other
 * end), and `drop()` cuts the line without one, as a network failure does (1006).
 */
class PortSocket implements WebSocketLike {
  readyState = OPEN;
  readonly #port: MessagePort;
  readonly #listeners = new Map<string, ((event: never) => void)[]>();
  #closeFrame: { code: number; reason: string } | undefined;

  constructor(port: MessagePort) {
    this.#port = port;
    port.on('message', (frame: Frame) => {
      if ('text' in frame) this.#emit('message', { data: frame.text });
      else this.#closeFrame = { code: frame.close, reason: frame.reason };
    });
    port.on('close', () => {
      this.readyState = 3;
      const { code, reason } = this.#closeFrame ?? { code: 1006, reason: '' };
      this.#emit('close', { code, reason, wasClean: this.#closeFrame !== undefined });
    });
  }

  addEventListener(type: string, listener: (event: never) => void): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }

  send(data: string): void {
    this.#port.postMessage({ text: data } satisfies Frame);
  }

  close(code = 1000, reason = ''): void {
    if (this.readyState !== OPEN) return;
    this.readyState = 2;
    this.#closeFrame = { code, reason };
    this.#port.postMessage({ close: code, reason } satisfies Frame);
    this.#port.close();
  }

  drop(): void {
    this.readyState = 2;
    this.#port.close();
  }

  #emit(type: string, event: unknown): void {
    for (const listener of this.#listeners.get(type) ?? []) (listener as (event: unknown) => void)(event);
  }
}

/** The official SDK's server-side `Transport` (start, send, close; onmessage, onclose, onerror) over one socket end. */
class SdkServerSocket {
  onmessage: ((message: unknown) => void) | undefined;
  onclose: (() => void) | undefined;
  onerror: ((error: Error) => void) | undefined;
  readonly #socket: PortSocket;

  constructor(socket: PortSocket) {
    this.#socket = socket;
  }

  async start(): Promise<void> {
    this.#socket.addEventListener('message', ({ data }: { data: string }) => {
      try {
        this.onmessage?.(JSON.parse(data));
      } catch (error) {
        this.onerror?.(error as Error);
      }
    });
    this.#socket.addEventListener('close', () => this.onclose?.());
  }

  async send(message: unknown): Promise<void> {
    this.#socket.send(JSON.stringify(message));
  }

  async close(): Promise<void> {
    this.#socket.close(1000);
  }
}

interface Connection {
  readonly client: Client;
  /** The server's end of the line. */
  readonly line: PortSocket;
  /** What the client reported to `onError`. */
  readonly errors: Error[];
}

const live: { client: Client; line: PortSocket }[] = [];

afterEach(async () => {
  for (const { client, line } of live.splice(0)) {
    await client.close();
    line.drop();
  }
});

/** The reference server on one end of a fresh line, and a connected client on the other end. */
async function connect(options: ClientOptions = {}): Promise<Connection> {
  const { port1, port2 } = new MessageChannel();
  const line = new PortSocket(port2);
  await createV1Server().connect(new SdkServerSocket(line));
  const errors: Error[] = [];
  const client = new Client(new WebSocketTransport(new PortSocket(port1)), {
    clientInfo: { name: 'websocket-test', version: '1.0.0' },
    requestTimeout: 5000,
    ...options,
    onError: (error) => errors.push(error),
  });
  live.push({ client, line });
  await client.connect();
  return { client, line, errors };
}

describe('a third-party transport over a WebSocket-like channel', () => {
  it('connects, lists the tools across pages and calls one', async () => {
    const { client } = await connect();
    expect(client.serverInfo?.name).toBe('mcp-reference-server');
    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('echo');
    expect(tools.length).toBeGreaterThan(5);
    expect((await client.callTool('echo', { text: 'over a socket' })).text).toBe('over a socket');
  });

  it("delivers the server's progress notifications for a call", async () => {
    const { client } = await connect();
    const progress: number[] = [];
    const result = await client.callTool(
      'slow',
      { steps: 3, intervalMs: 5 },
      { onProgress: (update) => progress.push(update.progress) },
    );
    expect(result.text).toBe('done after 3 steps');
    expect(progress).toEqual([1, 2, 3]);
  });

  it('answers server requests with the handlers the client was given (roots, elicitation)', async () => {
    const { client } = await connect({
      roots: [{ uri: 'file:///work', name: 'work' }],
      elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }),
    });
    expect(JSON.parse((await client.callTool('list-roots')).text)).toEqual([{ uri: 'file:///work', name: 'work' }]);
    expect(JSON.parse((await client.callTool('elicit')).text)).toEqual({ action: 'accept', content: { name: 'Ada' } });
  });

  it('reports a frame that is not JSON and goes on', async () => {
    const { client, line, errors } = await connect();
    line.send('not json');
    expect((await client.callTool('echo', { text: 'still here' })).text).toBe('still here');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ProtocolError);
  });

  it('ends a pending call with ClientClosedError when the client closes', async () => {
    const { client } = await connect();
    const pending = client.callTool('slow', { steps: 1, intervalMs: 60_000 }).catch((caught: unknown) => caught);
    await client.listTools();
    await client.close();
    expect(await pending).toBeInstanceOf(ClientClosedError);
  });

  it('fails a pending call with TransportError when the connection drops, and every later call at once', async () => {
    const { client, line } = await connect();
    const pending = client.callTool('slow', { steps: 1, intervalMs: 60_000 }).catch((caught: unknown) => caught);
    await client.listTools();
    line.drop();
    const error = await pending;
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toContain('1006');
    const later = await client.callTool('echo', { text: 'too late' }).catch((caught: unknown) => caught);
    expect(later).toBeInstanceOf(ClientClosedError);
    expect((later as Error).cause).toBe(error);
  });

  it('ends pending calls with ClientClosedError when the server closes the connection cleanly', async () => {
    const { client, line } = await connect();
    const pending = client.callTool('slow', { steps: 1, intervalMs: 60_000 }).catch((caught: unknown) => caught);
    await client.listTools();
    line.close(1000);
    expect(await pending).toBeInstanceOf(ClientClosedError);
  });
});
