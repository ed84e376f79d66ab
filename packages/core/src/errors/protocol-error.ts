import { McpError } from './mcp-error.js';

/**
 * The server sent something that breaks the protocol: invalid JSON, a message that
 * is not JSON-RPC, or a result of the wrong shape. `data` carries the validation
 * issues when there are some.
 */
export class ProtocolError extends McpError {
  override name = 'ProtocolError';
  readonly data: unknown;

  constructor(message: string, data?: unknown, options?: ErrorOptions) {
    super(message, options);
    this.data = data;
  }
}
