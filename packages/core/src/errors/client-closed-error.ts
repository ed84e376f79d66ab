import { McpError } from './mcp-error.js';

/** The client was closed (or its connection ended) before the call completed. */
export class ClientClosedError extends McpError {
  override name = 'ClientClosedError';

  /** `options.cause`: what ended the connection, when it was not `close()`. */
  constructor(message = 'mcp: client closed', options?: ErrorOptions) {
    super(message, options);
  }
}
