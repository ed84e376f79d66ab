import { McpError } from './mcp-error.js';

/**
 * A request failed below HTTP: no connection, a reset, a DNS failure. `cause`
 * holds what the runtime threw. `delivered` says whether the request may have
 * reached the server (`'no'` only when the failure proves it did not).
 */
export class NetworkError extends McpError {
  override name = 'NetworkError';
  /** The URL of the request that failed. */
  readonly url: string;
  /** `'no'` when the failure proves the request never reached the server, else `'unknown'`. */
  readonly delivered: 'no' | 'unknown';

  /** `delivered`: whether the server may have received the request. */
  constructor(message: string, url: string, delivered: 'no' | 'unknown', options?: ErrorOptions) {
    super(message, options);
    this.url = url;
    this.delivered = delivered;
  }
}
