/**
 * @mcp/core/apps: the host side of MCP Apps (`io.modelcontextprotocol/ui`) for
 * web pages — render a tool's interactive view in a sandbox on another origin,
 * speak its protocol, and hold it to a policy and to bounds. Browser-only.
 *
 * @module @mcp/core/apps
 */

export { type AppCsp, type AppCspOptions, buildAppCsp, MAX_APP_CSP_SOURCES } from './app-csp.js';
export { APPS_PROTOCOL_VERSION, AppHost } from './app-host.js';
export type {
  AppHostEvent,
  AppHostOptions,
  AppHostState,
  AppServer,
  AppToolCall,
} from './app-host-options.js';
export {
  type AppLimits,
  DEFAULT_MAX_VIEW_MESSAGE_BYTES,
  DEFAULT_MAX_VIEW_MESSAGES_PER_SECOND,
  DEFAULT_MAX_VIEW_REQUESTS_IN_FLIGHT,
  DEFAULT_MAX_VIEW_SIZE,
  DEFAULT_VIEW_INITIALIZE_TIMEOUT,
  DEFAULT_VIEW_TEARDOWN_TIMEOUT,
} from './app-limits.js';
export { MAX_VIEW_LINK_LENGTH } from './app-link.js';
export type {
  AppLogEntry,
  AppMessage,
  AppModelContext,
  AppPermissions,
  AppPolicy,
  AppToolCallRequest,
} from './app-policy.js';
export { AppViewError, type AppViewErrorCode } from './app-view-error.js';
export type { AppContainerDimensions, AppDisplayMode, AppHostContext } from './host-context.js';
export { MAX_VIEW_MESSAGE_DEPTH } from './view-bounds.js';
