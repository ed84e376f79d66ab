import { ErrorCode, type RequestId, RpcError } from '@mcp/core';
import { jsonExcerpt } from '@mcp/core/transport';
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

/**
 * What stands in for an answer that cannot be written as JSON text. A value
 * the remote server sent may nest deeper than `JSON.stringify` can recurse (a
 * few thousand levels, where parsing it took none of the stack), or make a
 * line longer than a string can be.
 */
export const NOT_SERIALISABLE: ErrorObject = {
  code: ErrorCode.InternalError,
  message: 'bridge: result not serialisable',
};

/** Why a message could not be written, for stderr. */
const UNWRITABLE = 'not serialisable (nested too deep for JSON.stringify, or too long)';

/** Options of {@link LocalPeer}. */
export interface LocalPeerOptions {
  /** Bytes waiting unread past which notifications are dropped (default {@link DEFAULT_MAX_QUEUED_OUTPUT}). */
  readonly maxQueuedOutput?: number;
  /** Told what was not written as it came, for stderr: once per episode of dropping, and each message that could not be written. */
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
 * else may go there. No method throws: a message that cannot be written is
 * replaced (an answer), dropped (a notification) or failed (a request of
 * ours), and the bridge goes on serving.
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
    this.#answer(id, { result });
  }

  fail(id: RequestId | null, error: ErrorObject): void {
    this.#answer(id, { error });
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
    if (!this.#write({ jsonrpc: '2.0', method, ...(params && { params }) })) {
      this.#onDrop?.(`dropped ${method}: ${UNWRITABLE}`);
    }
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
      if (this.#write({ jsonrpc: '2.0', id, method, ...(params !== undefined && { params }) })) return;
      this.#onDrop?.(`did not ask the local client ${method}: ${UNWRITABLE}; the remote server gets an error`);
      this.#pending.get(id)?.reject(new RpcError(ErrorCode.InternalError, 'bridge: request not serialisable'));
      this.#pending.delete(id);
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

  /** The answer to request `id`, or {@link NOT_SERIALISABLE} in its place when it cannot be written. */
  #answer(id: RequestId | null, body: { result: Record<string, unknown> } | { error: ErrorObject }): void {
    if (this.#write({ jsonrpc: '2.0', id, ...body })) return;
    this.#onDrop?.(
      `the answer to request ${jsonExcerpt(id, 80)} is ${UNWRITABLE}; sent "${NOT_SERIALISABLE.message}" instead`,
    );
    this.#write({ jsonrpc: '2.0', id, error: NOT_SERIALISABLE });
  }

  /**
   * Writes `message` as one line; false, writing nothing, when it has no JSON
   * text. Every message the bridge sends comes through here, so what the
   * remote server sent can make no write throw.
   */
  #write(message: Record<string, unknown>): boolean {
    if (this.#closed) return true;
    let line: string;
    try {
      line = `${JSON.stringify(message)}\n`;
    } catch {
      return false;
    }
    this.#out.write(line);
    return true;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
