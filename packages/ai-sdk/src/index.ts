/**
 * `@mcp/ai-sdk`: the tools of `@mcp/core` clients as a Vercel AI SDK `ToolSet`
 * (`ai` 6 or 7, the app's own copy).
 *
 * @module @mcp/ai-sdk
 */
export {
  type McpToolCall,
  type McpToolMetadata,
  type McpToolSetOptions,
  type McpToolSource,
  mcpToolSet,
} from './mcp-tool-set.js';
export { DEFAULT_MAX_DESCRIPTION_CHARS, DEFAULT_MAX_SCHEMA_BYTES } from './tool-bounds.js';
export { MAX_SOURCE_NAME_LENGTH, MAX_TOOL_NAME_LENGTH, PREFIX_SEPARATOR } from './tool-names.js';
export {
  type McpToolSetWatcher,
  RELIST_RETRY_MS,
  type RelistRetryMs,
  type WatchMcpToolSetOptions,
  watchMcpToolSet,
} from './watch-mcp-tool-set.js';
