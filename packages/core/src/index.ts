/**
 * @mcp/core: an isomorphic Model Context Protocol client. Protocol schemas and
 * types live in the `@mcp/core/protocol` subpath.
 */
export { type McpTool, mcpTools } from './ai/mcp-tools.js';
export { Client } from './client/client.js';
export type {
  CallOptions,
  ClientLimits,
  ClientOptions,
  ElicitationHandler,
  ElicitationOptions,
  HandlerContext,
  NotificationHandler,
  Progress,
  RootsOption,
  SamplingHandler,
} from './client/options.js';
export type {
  Completion,
  PromptMessageResult,
  PromptPart,
  PromptResult,
  ReadResourceResult,
  ResourceContent,
  ToolResult,
} from './client/results.js';
export {
  CapabilityError,
  ClientClosedError,
  HttpError,
  McpError,
  ProtocolError,
  RpcError,
  ToolError,
  TransportError,
  UnsupportedVersionError,
} from './errors/index.js';
export type { JsonRpcMessage, RequestId } from './protocol/jsonrpc.js';
export { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from './protocol/versions.js';
export { MemoryTransport } from './transport/memory-transport.js';
export { MessageQueue } from './transport/message-queue.js';
export type { SendOptions, Transport, TransportEvent } from './transport/transport.js';
