import { McpError } from './mcp-error.js';

/**
 * A request failed below HTTP: no connection, a reset, a DNS failure. `cause`
 * holds what the runtime threw. `delivered` says whether the request may have
 * reached the server (`'no'` only when the failure proves it did not).
 */
export class NetworkError extends McpError {
  override name = 'NetworkError';
  readonly url: string;
  readonly delivered: 'no' | 'unknown';

  /** `delivered`: whether the server may have received the request. */
  constructor(message: string, url: string, delivered: 'no' | 'unknown', options?: ErrorOptions) {
    super(message, options);
    this.url = url;
    this.delivered = delivered;
  }
}
