/**
 * @mcp/core: an isomorphic Model Context Protocol client. Protocol schemas and
 * types live in the `@mcp/core/protocol` subpath; what a transport author
 * implements and builds on, in `@mcp/core/transport`.
 *
 * @module @mcp/core
 */
export { type McpTool, mcpTools } from './ai/mcp-tools.js';
export type { DpopOptions } from './auth/dpop.js';
export type {
  AssertionTarget,
  ClientCredentialsGrant,
  Grant,
  IdentityProvider,
  JwtBearerGrant,
  MachineClient,
  TokenExchangeGrant,
} from './auth/grants/grant.js';
export { OAuthProvider } from './auth/oauth-provider.js';
export type {
  AllowUrl,
  AllowUrlContext,
  AuthorizeHandler,
  ClientMetadata,
  OAuthLimits,
  OAuthOptions,
  OAuthUrlPurpose,
} from './auth/options.js';
export type { ClientCredentials, TokenEndpointAuthMethod } from './auth/registered-client.js';
export { MemoryOAuthStore, type OAuthStore } from './auth/store.js';
export { Client } from './client/client.js';
// A type only: the Client makes subscriptions (`listen()`), apps only hold them.
export type { ListenEvent, ListenFilter, Subscription } from './client/listen/subscription.js';
export type {
  CallOptions,
  CallToolOptions,
  ClientLimits,
  ClientOptions,
  ElicitationHandler,
  ElicitationOptions,
  EraCache,
  EraKind,
  HandlerContext,
  NotificationHandler,
  Progress,
  RootsOption,
  SamplingHandler,
  SamplingOptions,
} from './client/options.js';
export type {
  Completion,
  CompletionRequest,
  PromptMessageResult,
  PromptPart,
  PromptResult,
  ReadResourceResult,
  ResourceContent,
} from './client/results/catalogue.js';
export type { SessionSnapshot } from './client/session-snapshot.js';
export type { TaskStartOptions, Tasks } from './client/tasks/task-api.js';
export { AuthError, type AuthErrorCode } from './errors/auth-error.js';
export {
  CapabilityError,
  ClientClosedError,
  CorsError,
  HttpError,
  LimitError,
  McpError,
  NetworkError,
  OutputValidationError,
  ProtocolError,
  type ProtocolErrorData,
  type ProtocolIssue,
  ResourceNotFoundError,
  RpcError,
  SessionExpiredError,
  ToolError,
  TransportError,
  UnsupportedVersionError,
  UrlElicitationRequiredError,
} from './errors/index.js';
export type { ClientCapabilities, ServerCapabilities } from './protocol/capabilities.js';
export type { PromptReference, ResourceTemplateReference } from './protocol/completion.js';
export type { ContentBlock } from './protocol/content.js';
export type {
  ElicitRequestFormParams,
  ElicitRequestParams,
  ElicitRequestUrlParams,
  ElicitResult,
} from './protocol/elicitation.js';
export { ErrorCode } from './protocol/error-codes.js';
export type { Implementation } from './protocol/implementation.js';
export type { JsonRpcMessage, RequestId } from './protocol/jsonrpc.js';
export type { LoggingLevel } from './protocol/logging.js';
export type { Prompt } from './protocol/prompts.js';
export type { Resource, ResourceTemplate } from './protocol/resources.js';
export type { Root } from './protocol/roots.js';
export type {
  CreateMessageRequestParams,
  CreateMessageResult,
  SamplingContent,
  SamplingMessage,
} from './protocol/sampling.js';
export type { TaskReference, TaskStatus } from './protocol/tasks.js';
export type { Tool, ToolResult } from './protocol/tools.js';
export { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from './protocol/versions.js';
export type { AuthProvider, AuthRequest } from './transport/auth-provider.js';
export type {
  RetryOptions,
  StreamableHttpTransportOptions,
  StreamReconnectOptions,
  TokenProvider,
} from './transport/http/options.js';
export { StreamableHttpTransport } from './transport/http/streamable-http-transport.js';
export { MemoryTransport } from './transport/memory-transport.js';
export type { SendOptions, SessionInfo, Transport, TransportEvent, TransportHooks } from './transport/transport.js';
export type { AddressClass } from './util/address-class.js';
