import { McpError } from './mcp-error.js';

/**
 * The server answered 404 to a request that carried a session id: the session is
 * gone (Streamable HTTP, 2025-03-26 on). The Client starts a new one and sends the
 * request again, once; users see this only if that fails too.
 */
export class SessionExpiredError extends McpError {
  override name = 'SessionExpiredError';
  readonly url: string;

  constructor(url: string) {
    super(`the MCP session at ${url} expired (HTTP 404)`);
    this.url = url;
  }
}
