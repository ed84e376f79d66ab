/**
 * `@mcp/ai-sdk`: the tools of `@mcp/core` clients as a Vercel AI SDK `ToolSet`
 * (`ai` 6 or 7, the app's own copy).
 *
 * @module @mcp/ai-sdk
 */

// The naming and bounding rules live in @mcp/core/connections, shared with its server sets.
export {
  DEFAULT_MAX_DESCRIPTION_CHARS,
  DEFAULT_MAX_SCHEMA_BYTES,
  MAX_SOURCE_NAME_LENGTH,
  MAX_TOOL_NAME_LENGTH,
  PREFIX_SEPARATOR,
} from '@mcp/core/connections';
export {
  type McpToolCall,
  type McpToolMetadata,
  type McpToolSetOptions,
  type McpToolSource,
  mcpToolSet,
} from './mcp-tool-set.js';
export {
  type McpToolSetWatcher,
  RELIST_RETRY_MS,
  type RelistRetryMs,
  type WatchMcpToolSetOptions,
  watchMcpToolSet,
} from './watch-mcp-tool-set.js';
