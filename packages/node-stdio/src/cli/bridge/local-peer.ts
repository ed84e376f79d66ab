import { ErrorCode, type RequestId, RpcError } from '@mcp/core';
import type { OutputStream } from '../format.js';

/** A JSON-RPC error object as it goes on the wire. */
export interface ErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/**
 * Bytes that may wait in stdout for the local client to read them unless told
 * otherwise. Past it notifications (progress, log messages, list changes) are
 * dropped, with one line on stderr, until the client catches up; answers and
 * requests are always written (they are bounded by `--max-in-flight`). Where
 * writes to a pipe block (stdout on Linux) nothing waits: the bridge waits instead.
 */
export const DEFAULT_MAX_QUEUED_OUTPUT = 16 * 1024 * 1024;

/** Where the bridge writes its messages: stdout, whose `writableLength` says how much waits unread. */
export interface PeerOutput extends OutputStream {
  readonly writableLength?: number;
}

/** Options of {@link LocalPeer}. */
export interface LocalPeerOptions {
  /** Bytes waiting unread past which notifications are dropped (default {@link DEFAULT_MAX_QUEUED_OUTPUT}). */
  readonly maxQueuedOutput?: number;
  /** Told once per episode of dropping. */
  readonly onDrop?: (message: string) => void;
}

/** A request of ours to the local client, waiting for its answer. */
interface Pending {
  readonly resolve: (result: Record<string, unknown>) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The local client's side of the bridge, seen from the bridge: we are its
 * server, so we answer its requests and send it notifications, and we also ask
 * it things (sampling, elicitation, roots) on the remote server's behalf. One
 * JSON-RPC message per line on stdout (2025-11-25, Transports, stdio); nothing
 * else may go there.
 */
export class LocalPeer {
  readonly #out: PeerOutput;
  readonly #maxQueued: number;
  readonly #onDrop: ((message: string) => void) | undefined;
  /** Notifications are being dropped, and that was told. */
  #dropping = false;
  readonly #pending = new Map<RequestId, Pending>();
  #nextId = 1;
  #closed = false;

  constructor(out: PeerOutput, options: LocalPeerOptions = {}) {
    this.#out = out;
    this.#maxQueued = options.maxQueuedOutput ?? DEFAULT_MAX_QUEUED_OUTPUT;
    this.#onDrop = options.onDrop;
  }

  respond(id: RequestId, result: Record<string, unknown>): void {
    this.#write({ jsonrpc: '2.0', id, result });
  }

  fail(id: RequestId | null, error: ErrorObject): void {
    this.#write({ jsonrpc: '2.0', id, error });
  }

  notify(method: string, params?: Readonly<Record<string, unknown>>): void {
    const queued = this.#out.writableLength ?? 0;
    if (queued > this.#maxQueued) {
      if (!this.#dropping) {
        this.#onDrop?.(
          `dropped ${method}: ${queued} bytes wait for the local client to read stdout (at most ${this.#maxQueued}); notifications are dropped until it catches up`,
        );
      }
      this.#dropping = true;
      return;
    }
    this.#dropping = false;
    this.#write({ jsonrpc: '2.0', method, ...(params && { params }) });
  }

  /**
   * Asks the local client and resolves with its result; its error answer
   * rejects with an `RpcError` keeping code, message and data, so they reach the
   * remote server as they were. Aborting `signal` (the remote server cancelled,
   * or the bridge is closing) sends `notifications/cancelled` and rejects.
   */
  request(method: string, params: unknown, signal: AbortSignal): Promise<Record<string, unknown>> {
    if (this.#closed) return Promise.reject(new Error(`bridge: the local client is gone; ${method} not sent`));
    if (signal.aborted) return Promise.reject(signal.reason);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (!this.#pending.delete(id)) return;
        this.notify('notifications/cancelled', { requestId: id, reason: String(signal.reason) });
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const done = () => signal.removeEventListener('abort', onAbort);
      this.#pending.set(id, {
        resolve: (result) => {
          done();
          resolve(result);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      });
      this.#write({ jsonrpc: '2.0', id, method, ...(params !== undefined && { params }) });
    });
  }

  /** An answer from the local client; false when it answers nothing we asked. */
  settle(message: Record<string, unknown>): boolean {
    const id = message.id as RequestId;
    const pending = this.#pending.get(id);
    if (!pending) return false;
    this.#pending.delete(id);
    const { error, result } = message;
    if (isRecord(error)) {
      const code = typeof error.code === 'number' ? error.code : ErrorCode.InternalError;
      const text = typeof error.message === 'string' ? error.message : 'the local client refused';
      pending.reject(new RpcError(code, text, error.data));
    } else if (isRecord(result)) pending.resolve(result);
    else pending.reject(new RpcError(ErrorCode.InternalError, 'the local client answered with no result object'));
    return true;
  }

  /** Stdin ended: nothing more will be answered or written. */
  close(): void {
    this.#closed = true;
    const reason = new Error('bridge: the local client closed its input');
    for (const pending of this.#pending.values()) pending.reject(reason);
    this.#pending.clear();
  }

  #write(message: Record<string, unknown>): void {
    if (this.#closed) return;
    this.#out.write(`${JSON.stringify(message)}\n`);
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
