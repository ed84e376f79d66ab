/**
 * The official SDKs' server `Transport` (start/send/close + onmessage/onclose/onerror)
 * over a message transport shaped like @mcp/core's: `send(message)`,
 * `messages()` (an async iterable of `{type:'message', message}` and
 * `{type:'error', error}` events) and `close()`. Duck-typed, so test-servers
 * code never imports the client it is meant to test.
 */
export class SdkTransportAdapter {
  /** @type {((message: unknown, extra?: unknown) => void) | undefined} */
  onmessage = undefined;
  /** @type {(() => void) | undefined} */
  onclose = undefined;
  /** @type {((error: Error) => void) | undefined} */
  onerror = undefined;

  #inner;
  #started = false;
  #closed = false;

  /**
   * @param {{ send(message: unknown): Promise<void>, messages(): AsyncIterable<{ type: string, message?: unknown, error?: Error }>, close(): Promise<void> }} inner
   */
  constructor(inner) {
    this.#inner = inner;
  }

  /** Begins delivering inbound messages; resolves at once, the pump runs on. */
  async start() {
    if (this.#started) throw new Error('SdkTransportAdapter already started');
    this.#started = true;
    void this.#pump();
  }

  /** @param {unknown} message */
  async send(message) {
    await this.#inner.send(message);
  }

  /** Closes the underlying transport; `onclose` fires once, when the inbound stream ends. */
  async close() {
    await this.#inner.close();
    this.#finish();
  }

  async #pump() {
    try {
      for await (const event of this.#inner.messages()) {
        if (event.type === 'error') this.onerror?.(event.error ?? new Error('transport error'));
        else if (isJsonRpc(event.message)) this.onmessage?.(event.message);
        else this.onerror?.(new Error(`Not a JSON-RPC 2.0 message: ${JSON.stringify(event.message)}`));
      }
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
    this.#finish();
  }

  #finish() {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }
}

/**
 * @param {unknown} value
 * @returns {boolean}
 */
function isJsonRpc(value) {
  return typeof value === 'object' && value !== null && /** @type {{ jsonrpc?: unknown }} */ (value).jsonrpc === '2.0';
}
