import { McpError } from '../errors/mcp-error.js';

/** Why a view was refused or torn down: one thing an app can act on. */
export type AppViewErrorCode =
  /** The tool has no `_meta.ui.resourceUri`, or it is not a `ui://` URI. */
  | 'no_ui_resource'
  /** The resource is not `text/html;profile=mcp-app`, or carries no HTML. */
  | 'unsupported_resource'
  /** The sandbox proxy page is on the host page's own origin, which would make the sandbox moot. */
  | 'same_origin'
  /** The sandbox URL is not an http(s) URL. */
  | 'invalid_sandbox'
  /** The view did not say `ui/notifications/initialized` within `limits.initializeTimeoutMs`. */
  | 'initialize_timeout'
  /** A message from the view was larger than `limits.maxMessageBytes`. */
  | 'message_too_large'
  /** The view sent more than `limits.maxMessagesPerSecond`. */
  | 'rate_limited'
  /** The view had more than `limits.maxRequestsInFlight` requests unanswered. */
  | 'too_many_requests'
  /** The view sent something that is not a JSON-RPC 2.0 message. */
  | 'invalid_message'
  /** The resource's `_meta.ui.csp` holds something other than plain origins (`buildAppCsp`). */
  | 'invalid_csp'
  /** The view navigated its own frame away from its HTML, where its CSP no longer holds. */
  | 'view_navigated'
  /** Reading the resource or mounting the view failed: `cause` says why. */
  | 'load_failed'
  /** The host was torn down (by the app) before the view was ready. */
  | 'torn_down';

/**
 * A view (`@mcp/core/apps`) was refused, or broke a bound and was torn down.
 * The rest of the page goes on; the failure underneath, if any, is the `cause`.
 */
export class AppViewError extends McpError {
  override name = 'AppViewError';
  /** What went wrong. */
  readonly code: AppViewErrorCode;

  /** `code` says why; `options.cause` is the failure underneath, if any. */
  constructor(code: AppViewErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}
