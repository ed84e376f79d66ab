import { ErrorCode } from '../protocol/error-codes.js';
import type { JsonRpcErrorObject } from '../protocol/jsonrpc.js';
import { messageOf } from '../util/message-of.js';
import { RpcError } from './rpc-error.js';

/**
 * What a peer receives when answering its request failed. An `RpcError` crosses
 * as it came (its code, its wire message, its data). Anything else becomes an
 * internal error carrying its message.
 */
export function toErrorObject(error: unknown): JsonRpcErrorObject {
  if (error instanceof RpcError) {
    return { code: error.code, message: error.rpcMessage, ...(error.data !== undefined && { data: error.data }) };
  }
  return { code: ErrorCode.InternalError, message: messageOf(error) || 'handler failed' };
}
