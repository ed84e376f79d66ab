import { McpError } from './mcp-error.js';

/** The server answered a request with a JSON-RPC error object. */
export class RpcError extends McpError {
  override name = 'RpcError';
  /** The JSON-RPC error code (`ErrorCode` names the known ones). */
  readonly code: number;
  /** The error's `data`, as the server sent it. */
  readonly data: unknown;
  /** The method of the request the server refused. */
  readonly method: string | undefined;
  /** The error message exactly as sent on the wire. */
  readonly rpcMessage: string;

  /** The JSON-RPC error the server answered `method` with. */
  constructor(code: number, message: string, data?: unknown, method?: string, options?: ErrorOptions) {
    super(method ? `${method}: ${message} (${code})` : `${message} (${code})`, options);
    this.code = code;
    this.rpcMessage = message;
    this.data = data;
    this.method = method;
  }
}
