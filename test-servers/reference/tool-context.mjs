/**
 * What a reference tool may do besides compute its result. Each SDK adapter
 * (v1-tool-context.mjs, v2-tool-context.mjs) builds one per `tools/call`, so the
 * tool definitions never touch an SDK and both servers behave the same.
 *
 * @typedef {object} ToolContext
 * @property {AbortSignal} signal aborted when the client cancels the call
 * @property {(progress: number, total: number, message: string) => Promise<void>} progress
 *   sends `notifications/progress` for this request; a no-op without a progress token
 * @property {(key: string, request: ClientRequest) => Promise<ClientOutcome>} clientRequest
 *   asks the client for something (sampling, elicitation, roots) on behalf of this call
 * @property {(level: string, data: unknown) => Promise<void>} log
 *   sends `notifications/message` unless the client's log level filters it out
 * @property {(uri: string) => Promise<void>} resourceUpdated
 *   sends `notifications/resources/updated` if the client subscribed to `uri`
 * @property {(elicitationId: string) => Promise<void>} [elicitationComplete]
 *   v1 only (2025-11-25): sends `notifications/elicitation/complete` for `elicitationId`
 * @property {(makeTool: (n: number) => ReferenceTool) => Promise<void>} addTool
 *   registers `makeTool(n)` on this connection, n counting 1, 2, … per connection,
 *   and sends `notifications/tools/list_changed`
 * @property {MrtrPort} [mrtr] v2 on 2026-07-28 only: the raw multi-round-trip state
 * @property {() => Headers | undefined} [httpHeaders] the HTTP request's headers, when there is one
 * @property {() => Record<string, number>} [requestCounts] v2 on 2026-07-28 only: messages received per method
 */

/**
 * The multi-round-trip view of one request (2026-07-28, basic/patterns/mrtr),
 * for tools that drive several inputs or rounds themselves.
 * @typedef {object} MrtrPort
 * @property {Record<string, any>} responses the retry's `inputResponses` (bare results), {} on a first call
 * @property {string | undefined} requestState the retry's `requestState`, exactly as received
 * @property {(spec: { inputRequests?: Record<string, ClientRequest>, requestState?: string }) => unknown} suspend
 *   the InputRequiredResult to return now
 * @property {import('./request-state.mjs').StateSealer} states seals and opens requestState
 */

/**
 * A server→client request, without JSON-RPC framing.
 * @typedef {object} ClientRequest
 * @property {'sampling/createMessage' | 'elicitation/create' | 'roots/list'} method
 * @property {Record<string, unknown>} [params]
 */

/**
 * How a client request ended: the client's result, the error it answered with,
 * or (v2, multi-round-trip) `suspend`, the value the call must return now so
 * the client fulfils the request and retries (an InputRequiredResult).
 * @typedef {{ result: any } | { error: unknown } | { suspend: unknown }} ClientOutcome
 */

/**
 * A tool as the reference servers define it, independent of either SDK.
 * `inputSchema`/`outputSchema` are zod objects, converted to JSON Schema for
 * `tools/list`.
 *
 * @typedef {object} ReferenceTool
 * @property {string} name
 * @property {string} title
 * @property {string} description
 * @property {import('zod').ZodObject} inputSchema
 * @property {import('zod').ZodType} [outputSchema]
 * @property {Record<string, unknown>} [outputJsonSchema] listed as is instead of `outputSchema` (a schema zod would not write)
 * @property {Record<string, unknown>} [annotations]
 * @property {(args: Record<string, any>, ctx: ToolContext) => Promise<CallToolResult>} run
 */

/**
 * @typedef {object} CallToolResult
 * @property {Record<string, unknown>[]} content
 * @property {Record<string, unknown>} [structuredContent]
 * @property {boolean} [isError]
 */

export {};
