import { ClientClosedError } from '../errors/client-closed-error.js';
import type { JsonRpcMessage } from '../protocol/jsonrpc.js';
import { MessageQueue } from './message-queue.js';
import type { Transport, TransportEvent } from './transport.js';

/**
 * One end of an in-process linked pair. Messages cross as JSON text, exactly as
 * on a wire, so neither side can observe or mutate the other's objects.
 */
export class MemoryTransport implements Transport {
  #inbound = new MessageQueue<TransportEvent>();
  #peer: MemoryTransport | undefined;
  #closed = false;

  /** Two linked ends: what one sends, the other receives. */
  static createPair(): [MemoryTransport, MemoryTransport] {
    const a = new MemoryTransport();
    const b = new MemoryTransport();
    a.#peer = b;
    b.#peer = a;
    return [a, b];
  }

  /** Delivers `message` to the other end as JSON text; rejects once this end is closed. */
  send(message: JsonRpcMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new ClientClosedError('MemoryTransport: closed'));
    const peer = this.#peer;
    if (peer) peer.#deliver(JSON.stringify(message));
    return Promise.resolve();
  }

  #deliver(text: string): void {
    this.#inbound.push({ type: 'message', message: JSON.parse(text) as unknown, size: text.length });
  }

  /** What the other end sent; ends when either end closes. */
  messages(): AsyncIterable<TransportEvent> {
    return this.#inbound;
  }

  /** Closes both ends' streams, as closing a pipe does. Idempotent. */
  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#inbound.end();
    const peer = this.#peer;
    this.#peer = undefined;
    // The other end sees its stream end, as a pipe would.
    if (peer) {
      peer.#peer = undefined;
      peer.#inbound.end();
    }
    return Promise.resolve();
  }
}
