import { NetworkError } from './network-error.js';

/**
 * A browser refused a cross-origin request, most likely because the server's CORS
 * headers do not allow the MCP ones. The message tells the server author what to
 * allow and expose; browsers hide the exact reason from scripts.
 */
export class CorsError extends NetworkError {
  override name = 'CorsError';

  /** A request from `origin` to `url` the browser blocked. */
  constructor(url: string, origin: string, options?: ErrorOptions) {
    super(
      `the browser blocked the request from ${origin} to ${url}, probably by CORS: the server must answer OPTIONS with ` +
        'Access-Control-Allow-Origin, Access-Control-Allow-Methods: GET, POST, DELETE and Access-Control-Allow-Headers: ' +
        'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id, mcp-method, mcp-name ' +
        '(and any mcp-param-*), and send Access-Control-Expose-Headers: mcp-session-id, www-authenticate on responses',
      url,
      'unknown',
      options,
    );
  }
}
