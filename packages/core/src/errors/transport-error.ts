import { McpError } from './mcp-error.js';

/**
 * The connection to the server failed or ended: a child process that exited or
 * could not start, a stream that broke. Every call pending on it fails with this.
 */
export class TransportError extends McpError {
  override name = 'TransportError';
}
