import { McpError } from '../errors/mcp-error.js';

/** Why a connection refused or gave up: one thing an app can act on. */
export type ConnectionErrorCode =
  /** The config is unusable: no name, neither `url` nor `transport`, or both. */
  | 'invalid_config'
  /** The live `Client` was asked for while the connection is not `ready`. */
  | 'not_ready'
  /** The connection was closed by the app; nothing more happens on it. */
  | 'closed'
  /** A call or `connect()` found it `failed`: `cause` is the failure. */
  | 'failed'
  /** Reconnecting spent its budget (`reconnect.maxAttempts` or `reconnect.maxElapsedMs`): `cause` is the last failure. */
  | 'reconnect_budget';

/**
 * A connection (`@mcp/core/connections`) could not do what was asked. The
 * failure underneath, when there is one, is the `cause`.
 */
export class ConnectionError extends McpError {
  override name = 'ConnectionError';
  /** What went wrong. */
  readonly code: ConnectionErrorCode;

  /** `code` says why; `options.cause` is the failure underneath, if any. */
  constructor(code: ConnectionErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}
