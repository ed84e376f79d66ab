import { McpError } from './mcp-error.js';

/**
 * The server answered 404 to a request that carried a session id: the session is
 * gone (Streamable HTTP, 2025-03-26 on). The Client starts a new one and sends the
 * request again, once; users see this only if that fails too, or when the
 * request may already have run (`delivered`).
 */
export class SessionExpiredError extends McpError {
  override name = 'SessionExpiredError';
  /** The endpoint whose session is gone. */
  readonly url: string;
  /**
   * The server had taken the request before its session ended (the 404 came when
   * its response stream was resumed): it may have run, so it is not sent again.
   */
  readonly delivered: boolean;

  /** The session at `url` is gone (HTTP 404); `delivered`: the request may have run. */
  constructor(url: string, options?: { readonly delivered?: boolean }) {
    super(`the MCP session at ${url} expired (HTTP 404)${options?.delivered ? ' before the response arrived' : ''}`);
    this.url = url;
    this.delivered = options?.delivered === true;
  }
}
