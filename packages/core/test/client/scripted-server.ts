import type { JsonRpcMessage, RequestId, Transport } from '../../src/index.js';

/** A message as the scripted server saw it arrive: raw JSON-RPC, fields unchecked. */
export interface WireMessage {
  readonly jsonrpc?: unknown;
  readonly id?: RequestId;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
  readonly error?: { code: number; message: string; data?: unknown };
}

/** What `handshake()` answers to `initialize`. */
export interface HandshakeOptions {
  readonly capabilities?: Record<string, unknown>;
  /** Defaults to the version the client asked for. */
  readonly protocolVersion?: string;
  readonly serverInfo?: { name: string; version: string };
  readonly instructions?: string;
}

/** How long `expect` waits for the client's next message unless told otherwise. */
const DEFAULT_WAIT = 1000;

const show = (message: unknown): string => JSON.stringify(message) ?? String(message);

/**
 * The server side of a `MemoryTransport` pair, scripted message by message in
 * raw JSON-RPC, in the style of go-sdk's scripted fake server: each `expect`
 * names the next message the client must send, and `verify()` (run at teardown)
 * fails when an expectation was never met or a message arrived that no step
 * consumed. Responses to the server's own `request()`s are matched by id and
 * never enter the expected stream.
 */
export class ScriptedServer {
  readonly #transport: Transport;
  readonly #inbox: WireMessage[] = [];
  readonly #failures: string[] = [];
  readonly #waiting = new Set<string>();
  readonly #awaitingResponse = new Map<string, (message: WireMessage) => void>();
  readonly #wakers = new Set<() => void>();
  #nextId = 1;
  #streamEnded = false;
  /** Settles when the client's end stops sending (it closed, or we did). */
  readonly ended: Promise<void>;

  constructor(transport: Transport) {
    this.#transport = transport;
    this.ended = this.#read();
  }

  async #read(): Promise<void> {
    for await (const event of this.#transport.messages()) {
      if (event.type !== 'message') {
        this.#failures.push(`transport error: ${event.error.message}`);
        continue;
      }
      const message = event.message as WireMessage;
      const key = message?.method === undefined && message?.id !== undefined ? idKey(message.id) : undefined;
      const waiter = key === undefined ? undefined : this.#awaitingResponse.get(key);
      if (key !== undefined && waiter) {
        this.#awaitingResponse.delete(key);
        waiter(message);
      } else {
        this.#inbox.push(message);
      }
      this.#wakeAll();
    }
    this.#streamEnded = true;
    this.#wakeAll();
  }

  /** The next message the client sends; fails unless it is `method` (a request or a notification). */
  async expect(method: string, timeout = DEFAULT_WAIT): Promise<WireMessage> {
    const step = `expect(${method})`;
    this.#waiting.add(step);
    try {
      const message = await this.#next(timeout);
      if (message === undefined) {
        return this.#fail(`${step}: nothing arrived within ${timeout} ms${this.#streamEnded ? ' (stream ended)' : ''}`);
      }
      if (message.method !== method) return this.#fail(`${step}: received instead ${show(message)}`);
      return message;
    } finally {
      this.#waiting.delete(step);
    }
  }

  /** The next message the client sends, whatever it is (e.g. a response to a raw request). */
  async next(timeout = DEFAULT_WAIT): Promise<WireMessage> {
    const message = await this.#next(timeout);
    return message ?? this.#fail(`next(): nothing arrived within ${timeout} ms`);
  }

  async #next(timeout: number): Promise<WireMessage | undefined> {
    const deadline = Date.now() + timeout;
    while (this.#inbox.length === 0 && !this.#streamEnded) {
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.#wakers.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.#wakers.add(wake);
      });
    }
    return this.#inbox.shift();
  }

  reply(id: RequestId | undefined, result: Record<string, unknown>): Promise<void> {
    return this.send({ jsonrpc: '2.0', id, result });
  }

  replyError(id: RequestId | undefined, code: number, message: string, data?: unknown): Promise<void> {
    const error = { code, message, ...(data !== undefined && { data }) };
    return this.send({ jsonrpc: '2.0', id, error });
  }

  /** Sends anything at all, valid JSON-RPC or not. */
  send(raw: unknown): Promise<void> {
    return this.#transport.send(raw as JsonRpcMessage);
  }

  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    return this.send({ jsonrpc: '2.0', method, ...(params && { params }) });
  }

  /** Sends a server request and resolves with the client's response, however long it takes. */
  request(method: string, params?: Record<string, unknown>, id: RequestId = `srv-${this.#nextId++}`) {
    const step = `request(${method}, id ${JSON.stringify(id)})`;
    this.#waiting.add(step);
    const response = new Promise<WireMessage>((resolve) => {
      this.#awaitingResponse.set(idKey(id), (message) => {
        this.#waiting.delete(step);
        resolve(message);
      });
    });
    return this.send({ jsonrpc: '2.0', id, method, ...(params && { params }) }).then(() => response);
  }

  /** Fails unless the client stays silent for `ms`. */
  async assertNoMessage(ms: number): Promise<void> {
    const message = await this.#next(ms);
    if (message !== undefined) this.#fail(`assertNoMessage(${ms}): received ${show(message)}`);
  }

  /**
   * Expects `initialize`. A legacy server first receives the client's 2026-07-28
   * probe (`server/discover`, unless a version is pinned) and refuses it as an
   * unknown method, as the official SDK does; this plays that part too.
   */
  async expectInitialize(): Promise<WireMessage> {
    const first = await this.next();
    if (first.method !== 'server/discover') {
      if (first.method !== 'initialize') this.#fail(`expect(initialize): received instead ${show(first)}`);
      return first;
    }
    await this.replyError(first.id, -32601, 'Method not found');
    return this.expect('initialize');
  }

  /**
   * Plays the server's part of the legacy handshake: answers `initialize` with
   * `options`, then expects `notifications/initialized`. Returns the initialize request.
   */
  async handshake(options: HandshakeOptions = {}): Promise<WireMessage> {
    const init = await this.expectInitialize();
    await this.reply(init.id, {
      protocolVersion: options.protocolVersion ?? init.params?.protocolVersion,
      capabilities: options.capabilities ?? {},
      serverInfo: options.serverInfo ?? { name: 'scripted', version: '1.0.0' },
      ...(options.instructions !== undefined && { instructions: options.instructions }),
    });
    await this.expect('notifications/initialized');
    return init;
  }

  /** Resolves once the client's end has closed the stream, or fails after `timeout`. */
  async expectEnd(timeout = DEFAULT_WAIT): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), timeout);
    });
    const outcome = await Promise.race([this.ended, late]);
    clearTimeout(timer);
    if (outcome === 'late') this.#fail(`expectEnd(): the client's stream was still open after ${timeout} ms`);
  }

  close(): Promise<void> {
    return this.#transport.close();
  }

  /** Teardown check: every step was met and every message the client sent was consumed. */
  verify(): void {
    const problems = [
      ...this.#failures,
      ...[...this.#waiting].map((step) => `${step}: never met`),
      ...this.#inbox.map((message) => `unexpected message: ${show(message)}`),
    ];
    if (problems.length > 0) throw new Error(`scripted server:\n  ${problems.join('\n  ')}`);
  }

  #wakeAll(): void {
    for (const wake of [...this.#wakers]) wake();
  }

  #fail(problem: string): never {
    this.#failures.push(problem);
    throw new Error(`scripted server: ${problem}`);
  }
}

const idKey = (id: RequestId): string => (typeof id === 'number' ? `n${id}` : `s${id}`);
