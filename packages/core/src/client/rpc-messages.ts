import { RpcError } from '../errors/rpc-error.js';
import { ErrorCode } from '../protocol/error-codes.js';
import type { RequestId } from '../protocol/jsonrpc.js';
import type { SendOptions } from '../transport/transport.js';
import { isSafeToRepeat } from './safe-methods.js';

/** Pieces of the JSON-RPC messages the channel writes and the keys it files them under. */

/** A map key for a request id that keeps `1` and `"1"` apart, as JSON-RPC does. */
export const idKey = (id: RequestId): string => (typeof id === 'number' ? `n${id}` : `s${id}`);

export interface ErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A handler's failure as the JSON-RPC error the server receives. */
export function toErrorObject(error: unknown): ErrorObject {
  if (error instanceof RpcError) {
    return { code: error.code, message: error.rpcMessage, ...(error.data !== undefined && { data: error.data }) };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: ErrorCode.InternalError, message: message || 'handler failed' };
}

/** `params` with `_meta.progressToken` set, every other `_meta` key kept. */
export function withProgressToken(
  params: Record<string, unknown> | undefined,
  token: RequestId,
): Record<string, unknown> {
  const meta = params?._meta;
  return { ...params, _meta: { ...(typeof meta === 'object' && meta !== null ? meta : {}), progressToken: token } };
}

/** A short, printable form of a value for error messages. */
export function excerpt(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** Send options of a request with no signal and no headers, shared rather than built per call. */
const REPEATABLE: SendOptions = Object.freeze({ idempotent: true });
const ONCE: SendOptions = Object.freeze({ idempotent: false });

/** What the transport is told with a request: the signal that ends it, its headers, whether it may be repeated. */
export function sendOptionsFor(
  method: string,
  signal: AbortSignal | undefined,
  headers: Readonly<Record<string, string>> | undefined,
): SendOptions {
  const idempotent = isSafeToRepeat(method);
  if (!signal && !headers) return idempotent ? REPEATABLE : ONCE;
  return { ...(signal && { signal }), ...(headers && { headers }), idempotent };
}
