/**
 * The one scripted MCP server of the tests, in the style of go-sdk's scripted
 * fake server: the server side of a transport (a `MemoryTransport` pair's other
 * end), scripted message by message in raw JSON-RPC. Each `expect` names the
 * next message the client must send; `verify()` (run at teardown) fails when an
 * expectation was never met or a message arrived that no step consumed.
 *
 * Plain ESM with no imports (types in scripted-server.d.ts), so the unit tests,
 * a Node program checking the build, and every runtime of runtimes/ (a Chromium
 * page, a workerd worker, Deno, Bun) load this same file next to the build.
 */

/** How long `expect` waits for the client's next message unless told otherwise. */
const DEFAULT_WAIT = 1000;

/** JSON-RPC "Method not found", as the official SDK answers a method it does not know. */
const METHOD_NOT_FOUND = -32601;

const show = (message) => JSON.stringify(message) ?? String(message);

const idKey = (id) => (typeof id === 'number' ? `n${id}` : `s${id}`);

/** The server side of a transport, scripted step by step; see the module comment. */
export class ScriptedServer {
  #transport;
  #inbox = [];
  #failures = [];
  #waiting = new Set();
  #awaitingResponse = new Map();
  #wakers = new Set();
  #nextId = 1;
  #streamEnded = false;

  constructor(transport) {
    this.#transport = transport;
    /** Settles when the client's end stops sending (it closed, or we did). */
    this.ended = this.#read();
  }

  async #read() {
    for await (const event of this.#transport.messages()) {
      if (event.type !== 'message') {
        this.#failures.push(`transport error: ${event.error.message}`);
        continue;
      }
      const message = event.message;
      // Responses to the server's own `request()`s are matched by id and never enter the expected stream.
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
  async expect(method, timeout = DEFAULT_WAIT) {
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
  async next(timeout = DEFAULT_WAIT) {
    const message = await this.#next(timeout);
    return message ?? this.#fail(`next(): nothing arrived within ${timeout} ms`);
  }

  async #next(timeout) {
    const deadline = Date.now() + timeout;
    while (this.#inbox.length === 0 && !this.#streamEnded) {
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await new Promise((resolve) => {
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

  /** Answers the request `id` with `result`. */
  reply(id, result) {
    return this.send({ jsonrpc: '2.0', id, result });
  }

  /** Answers the request `id` with a JSON-RPC error. */
  replyError(id, code, message, data) {
    const error = { code, message, ...(data !== undefined && { data }) };
    return this.send({ jsonrpc: '2.0', id, error });
  }

  /** Sends anything at all, valid JSON-RPC or not. */
  send(raw) {
    return this.#transport.send(raw);
  }

  /** Sends a notification. */
  notify(method, params) {
    return this.send({ jsonrpc: '2.0', method, ...(params && { params }) });
  }

  /** Sends a server request and resolves with the client's response, however long it takes. */
  request(method, params, id = `srv-${this.#nextId++}`) {
    const step = `request(${method}, id ${JSON.stringify(id)})`;
    this.#waiting.add(step);
    const response = new Promise((resolve) => {
      this.#awaitingResponse.set(idKey(id), (message) => {
        this.#waiting.delete(step);
        resolve(message);
      });
    });
    return this.send({ jsonrpc: '2.0', id, method, ...(params && { params }) }).then(() => response);
  }

  /** Fails unless the client stays silent for `ms`. */
  async assertNoMessage(ms) {
    const message = await this.#next(ms);
    if (message !== undefined) this.#fail(`assertNoMessage(${ms}): received ${show(message)}`);
  }

  /**
   * Expects `initialize`. A legacy server first receives the client's 2026-07-28
   * probe (`server/discover`, unless a version is pinned) and refuses it as an
   * unknown method, as the official SDK does; this plays that part too.
   */
  async expectInitialize() {
    const first = await this.next();
    if (first.method !== 'server/discover') {
      if (first.method !== 'initialize') this.#fail(`expect(initialize): received instead ${show(first)}`);
      return first;
    }
    await this.replyError(first.id, METHOD_NOT_FOUND, 'Method not found');
    return this.expect('initialize');
  }

  /**
   * Plays the server's part of the legacy handshake: answers `initialize` with
   * `options`, then expects `notifications/initialized`. Returns the initialize request.
   */
  async handshake(options = {}) {
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

  /** Expects the request `method`, answers it with `result`, and returns the request. */
  async answer(method, result) {
    const request = await this.expect(method);
    await this.reply(request.id, result);
    return request;
  }

  /** Resolves once the client's end has closed the stream, or fails after `timeout`. */
  async expectEnd(timeout = DEFAULT_WAIT) {
    let timer;
    const late = new Promise((resolve) => {
      timer = setTimeout(() => resolve('late'), timeout);
    });
    const outcome = await Promise.race([this.ended, late]);
    clearTimeout(timer);
    if (outcome === 'late') this.#fail(`expectEnd(): the client's stream was still open after ${timeout} ms`);
  }

  /** Closes the server's end. */
  close() {
    return this.#transport.close();
  }

  /** Teardown check: every step was met and every message the client sent was consumed. */
  verify() {
    const problems = [
      ...this.#failures,
      ...[...this.#waiting].map((step) => `${step}: never met`),
      ...this.#inbox.map((message) => `unexpected message: ${show(message)}`),
    ];
    if (problems.length > 0) throw new Error(`scripted server:\n  ${problems.join('\n  ')}`);
  }

  #wakeAll() {
    for (const wake of [...this.#wakers]) wake();
  }

  #fail(problem) {
    this.#failures.push(problem);
    throw new Error(`scripted server: ${problem}`);
  }
}
