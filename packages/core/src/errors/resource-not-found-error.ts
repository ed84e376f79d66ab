import { RpcError } from './rpc-error.js';

/**
 * `resources/read` of a resource the server does not have: -32002 up to
 * 2025-11-25, -32602 from 2026-07-28 on; both arrive as this one class. It is
 * the server's `RpcError` seen for one URI: `code`, `rpcMessage`, `data` and
 * `method` are read from that error, which is its `cause`.
 */
export class ResourceNotFoundError extends RpcError {
  override name = 'ResourceNotFoundError';
  /** The URI the server has no resource for. */
  readonly uri: string;

  /** The server has no resource `uri`; `error` is its answer. */
  constructor(uri: string, error: RpcError) {
    super(error.code, error.rpcMessage, error.data, error.method, { cause: error });
    this.uri = uri;
  }
}
