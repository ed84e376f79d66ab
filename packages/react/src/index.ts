/**
 * @mcp/react: React bindings of `@mcp/core`'s connections — a provider holding
 * a set of MCP servers, `useMcp` for one server and `useMcpServers` for all,
 * each re-rendering only when what it shows changed. Safe under StrictMode and
 * server rendering: nothing connects until the client's effects run.
 *
 * @module @mcp/react
 */

export { type McpAppToolCall, McpAppView, type McpAppViewProps } from './mcp-app-view.js';
export {
  McpProvider,
  type McpProviderProps,
  type McpProviderWithConfigs,
  type McpProviderWithServers,
} from './mcp-provider.js';
export type { OnTheClient } from './on-the-client.js';
export { type UseMcpResult, useMcp } from './use-mcp.js';
export { type UseMcpServersResult, useMcpServers } from './use-mcp-servers.js';
