import { McpError } from '../errors/mcp-error.js';
import { ResourceNotFoundError } from '../errors/resource-not-found-error.js';
import { RpcError } from '../errors/rpc-error.js';
import type { ServerCapabilities } from '../protocol/capabilities.js';
import type { PromptReference, ResourceTemplateReference } from '../protocol/completion.js';
import { ErrorCode } from '../protocol/error-codes.js';
import type { Implementation } from '../protocol/implementation.js';
import type { LoggingLevel } from '../protocol/logging.js';
import type { Prompt } from '../protocol/prompts.js';
import type { Resource, ResourceTemplate } from '../protocol/resources.js';
import type { Tool, ToolResult } from '../protocol/tools.js';
import { type Transport, transportHooks } from '../transport/transport.js';
import { asyncDispose } from '../util/dispose.js';
import { lazy } from '../util/lazy.js';
import { type CapabilityPath, clientCapabilities, hasCapability, modernCapabilities } from './capabilities.js';
import { Connection } from './connection.js';
import { DispatchPool } from './dispatch-pool.js';
import type { Era } from './era.js';
import type { Listeners } from './listeners.js';
import { ModernEra } from './modern-era.js';
import type { CallOptions, ClientOptions } from './options.js';
import * as limits from './options.js';
import { collectPages, type Page } from './pagination.js';
import * as parsers from './parsers.js';
import { requestAnswerer } from './request-answerer.js';
import type { Completion, PromptResult, ReadResourceResult } from './results.js';
import { RpcChannel } from './rpc-channel.js';
import type { SessionSnapshot } from './session.js';
import type { ListenFilter, Subscription } from './subscription.js';
import { ToolRegistry } from './tool-registry.js';

/**
 * What few programs use loads the first time it is needed, so a bundler splits it
 * off: the parsers of resources, prompts and completion, and subscriptions.
 */
const contentParsers = lazy(() => import('./content-parsers.js'));
const listeners = lazy(() => import('./listeners.js'));

/**
 * One handle on one MCP server, whatever revision it speaks: `connect()` finds
 * out (2026-07-28 stateless, or the 2024-11-05 … 2025-11-25 handshake) and the
 * same methods and handlers work in both eras. Safe for concurrent calls.
 * Handlers go in the options, so the declared capabilities are right from the
 * first message.
 *
 * ```ts
 * await using client = new Client(transport, { clientInfo: { name: 'app', version: '1.0.0' } });
 * await client.connect();
 * const result = await client.callTool('search', { query: 'mcp' });
 * ```
 */
export class Client implements AsyncDisposable {
  readonly #options: ClientOptions;
  readonly #channel: RpcChannel;
  readonly #connection: Connection;
  #listeners: Listeners | undefined;
  readonly #tools = new ToolRegistry();
  readonly #maxPages: number;
  #logLevel: LoggingLevel | undefined;

  constructor(transport: Transport, options: ClientOptions = {}) {
    this.#options = options;
    this.#maxPages = options.limits?.maxPages ?? limits.DEFAULT_MAX_PAGES;
    const answer = requestAnswerer(options);
    const pool = new DispatchPool(options.limits?.maxConcurrentHandlers ?? limits.DEFAULT_MAX_CONCURRENT_HANDLERS);
    const requestTimeout = options.requestTimeout ?? limits.DEFAULT_REQUEST_TIMEOUT;
    const maxTotalTimeout = options.maxTotalTimeout ?? limits.DEFAULT_MAX_TOTAL_TIMEOUT;
    this.#channel = new RpcChannel(
      transport,
      {
        onRequest: (request, signal) => answer(request.method, request.params, signal),
        noticed: ({ method, params }) => {
          this.#connection.noticed(method, params);
          this.#listeners?.route(method, params);
        },
        onNotification: ({ method, params }) => options.onNotification?.(method, params),
        onError: (error) => options.onError?.(error),
      },
      {
        requestTimeout,
        maxTotalTimeout,
        pool,
        closeGrace: options.limits?.closeGrace ?? limits.DEFAULT_CLOSE_GRACE,
      },
    );
    const modern = new ModernEra({
      clientInfo: options.clientInfo ?? limits.DEFAULT_CLIENT_INFO,
      capabilities: modernCapabilities(clientCapabilities(options)),
      answer,
      maxRounds: options.limits?.maxInputRounds ?? limits.DEFAULT_MAX_INPUT_ROUNDS,
      maxInputRequests: options.limits?.maxInputRequests ?? limits.DEFAULT_MAX_INPUT_REQUESTS,
      pool,
      requestTimeout,
      maxTotalTimeout,
      cancelsByClosing: transportHooks(transport).cancelsByClosing === true,
      logLevel: () => this.#logLevel,
      extraHeaders: (method, params) =>
        method === 'tools/call' && typeof params?.name === 'string'
          ? this.#tools.headers(params.name, (params.arguments ?? {}) as Record<string, unknown>)
          : {},
    });
    this.#connection = new Connection(transport, this.#channel, options, modern);
  }

  /** The negotiated protocol revision; undefined until `connect()` succeeds. */
  get protocolVersion(): string | undefined {
    return this.#connection.server?.protocolVersion;
  }

  /** Which protocol era the server speaks: `modern` (2026-07-28) or `legacy` (the handshake revisions). */
  get era(): Era['kind'] {
    return this.#connection.era.kind;
  }

  get serverInfo(): Implementation | undefined {
    return this.#connection.server?.serverInfo;
  }

  get serverCapabilities(): ServerCapabilities | undefined {
    return this.#connection.server?.capabilities;
  }

  /** Guidance from the server on how to use it, e.g. for a system prompt. */
  get instructions(): string | undefined {
    return this.#connection.server?.instructions;
  }

  /**
   * A serialisable snapshot of the connected session, to `resume` it in another
   * client (e.g. the next invocation of a Worker). Undefined until connected.
   */
  get session(): SessionSnapshot | undefined {
    return this.#connection.snapshot();
  }

  /**
   * Finds the server's era and opens the session (or, with `resume`, continues
   * one). On failure — including a server that speaks no version we support
   * (`UnsupportedVersionError`) — the client is closed and the error thrown.
   */
  connect(options: CallOptions = {}): Promise<void> {
    return this.#connection.connect(options, () => this.close());
  }

  /**
   * Every tool, following pagination to the end. In the 2026-07-28 era a tool
   * whose `x-mcp-header` annotations break the rules is left out (`onWarning`).
   */
  async listTools(options?: CallOptions): Promise<Tool[]> {
    const tools = await this.#list('tools/list', 'tools', parsers.parseTools, options);
    if (this.era !== 'modern') return tools;
    const maxNodes = this.#options.limits?.maxSchemaNodes ?? limits.DEFAULT_MAX_SCHEMA_NODES;
    return this.#tools.accept(tools, maxNodes, (message) => this.#options.onWarning?.(message));
  }

  async listResources(options?: CallOptions): Promise<Resource[]> {
    return this.#list('resources/list', 'resources', (await contentParsers()).parseResources, options);
  }

  async listResourceTemplates(options?: CallOptions): Promise<ResourceTemplate[]> {
    return this.#list('resources/templates/list', 'resources', (await contentParsers()).parseTemplates, options);
  }

  async listPrompts(options?: CallOptions): Promise<Prompt[]> {
    return this.#list('prompts/list', 'prompts', (await contentParsers()).parsePrompts, options);
  }

  /** Calls a tool; omitted `args` are sent as `{}`. A tool's own failure is `isError: true`, not a throw. */
  async callTool(name: string, args: Record<string, unknown> = {}, options?: CallOptions): Promise<ToolResult> {
    const call = () => this.#request('tools/call', 'tools', { name, arguments: args }, parsers.parseCallTool, options);
    try {
      return await call();
    } catch (error) {
      // Our Mcp-Param-* headers disagree with the server's schema: learn it again, once (2026-07-28).
      if (!(error instanceof RpcError) || error.code !== ErrorCode.HeaderMismatch) throw error;
      await this.listTools({ ...options, cache: false });
      return call();
    }
  }

  /** Reads a resource; `blob` contents arrive decoded to bytes. A missing resource is a `ResourceNotFoundError`. */
  async readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    try {
      const { parseRead } = await contentParsers();
      return await this.#request('resources/read', 'resources', { uri }, parseRead, options);
    } catch (error) {
      const notFound = error instanceof RpcError && (error.code === -32002 || error.code === ErrorCode.InvalidParams);
      throw notFound ? new ResourceNotFoundError(uri, error) : error;
    }
  }

  /** Renders a prompt, its content parts flattened and binary data decoded. */
  async getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<PromptResult> {
    const params = { name, ...(args && { arguments: args }) };
    return this.#request('prompts/get', 'prompts', params, (await contentParsers()).parsePrompt, options);
  }

  /**
   * Suggestions for one argument of a prompt or resource template; `context` holds
   * arguments already chosen (2025-06-18 on).
   */
  async complete(
    ref: PromptReference | ResourceTemplateReference,
    argName: string,
    argValue: string,
    context?: Record<string, string>,
    options?: CallOptions,
  ): Promise<Completion> {
    const params = {
      ref,
      argument: { name: argName, value: argValue },
      ...(context && { context: { arguments: context } }),
    };
    const { parseComplete } = await contentParsers();
    return this.#request('completion/complete', this.#completionCapability(), params, parseComplete, options);
  }

  /** Checks the server answers: `ping` in the legacy era, `server/discover` in 2026-07-28 (which has no ping). */
  ping(options?: CallOptions): Promise<void> {
    const method = this.era === 'modern' ? 'server/discover' : 'ping';
    return this.#request(method, undefined, undefined, () => undefined, options);
  }

  /**
   * The level of log messages the server sends. Legacy: `logging/setLevel`;
   * 2026-07-28: stamped on every later request as `_meta` logLevel.
   */
  async setLoggingLevel(level: LoggingLevel, options?: CallOptions): Promise<void> {
    if (this.era === 'modern') {
      const refusal = this.#connection.refusal('logging/setLevel', 'logging');
      if (refusal) throw refusal;
      this.#logLevel = level;
      return;
    }
    await this.#request('logging/setLevel', 'logging', { level }, parsers.parseEmpty, options);
  }

  /** Legacy `resources/subscribe`; in every era `listen({ resources })` does the same. */
  async subscribeResource(uri: string, options?: CallOptions): Promise<void> {
    this.#requireLegacy('resources/subscribe');
    await this.#request('resources/subscribe', 'resources.subscribe', { uri }, parsers.parseEmpty, options);
    this.#connection.subscriptions.add(uri);
  }

  async unsubscribeResource(uri: string, options?: CallOptions): Promise<void> {
    this.#requireLegacy('resources/unsubscribe');
    await this.#request('resources/unsubscribe', 'resources.subscribe', { uri }, parsers.parseEmpty, options);
    this.#connection.subscriptions.delete(uri);
  }

  /**
   * Change notifications as a subscription: `for await (const event of sub)`.
   * Modern: a `subscriptions/listen` stream (reopened when it drops). Legacy: the
   * same events from the session's notifications and `resources/subscribe`.
   */
  async listen(filter: ListenFilter): Promise<Subscription> {
    const { Listeners } = await listeners();
    const refusal = this.#connection.refusal('subscriptions/listen');
    if (refusal) throw refusal;
    this.#listeners ??= new Listeners(this.#options);
    if (this.era === 'legacy') {
      this.#connection.wantServerMessages();
      return this.#listeners.openLegacy(
        filter,
        this.serverCapabilities,
        (uri) => this.subscribeResource(uri),
        (uri) => this.unsubscribeResource(uri),
      );
    }
    return this.#listeners.openModern(filter, (notifications, signal, onRequestId) =>
      this.#connection.era.request(
        this.#channel,
        'subscriptions/listen',
        { notifications },
        {
          parse: parsers.parseAny,
          signal,
          // The stream lives as long as the subscription: no timeout, no cap.
          timeout: 0,
          maxTotalTimeout: 0,
          onRequestId,
        },
      ),
    );
  }

  /**
   * Sends any request — an extension's method, say — through the era (the
   * 2026-07-28 envelope and headers, MRTR rounds, session renewal) and returns
   * its raw result object. No capability gating: the caller knows what it asks.
   */
  request(method: string, params?: Record<string, unknown>, options?: CallOptions): Promise<Record<string, unknown>> {
    return this.#request(method, undefined, params, parsers.parseObject(method), options);
  }

  /** Tells the server the roots changed (when `roots` is a function; legacy era). */
  notifyRootsChanged(): Promise<void> {
    const refusal = this.#connection.refusal('notifications/roots/list_changed');
    if (refusal) return Promise.reject(refusal);
    if (this.era === 'modern') return Promise.resolve(); // roots travel with each request's input answers
    return this.#channel.notify('notifications/roots/list_changed');
  }

  /**
   * Stops reading, fails pending calls with `ClientClosedError`, aborts handler
   * signals, waits a short grace for handlers, closes the transport. Idempotent.
   */
  async close(): Promise<void> {
    this.#listeners?.closeAll();
    await this.#channel.close();
  }

  [asyncDispose](): Promise<void> {
    return this.close();
  }

  /** 2024-11-05 had no `completions` capability; servers then offered completion with prompts or resources. */
  #completionCapability(): CapabilityPath {
    const caps = this.serverCapabilities;
    if (this.protocolVersion === '2024-11-05' && !hasCapability(caps, 'completions')) {
      return hasCapability(caps, 'prompts') ? 'prompts' : 'resources';
    }
    return 'completions';
  }

  #requireLegacy(method: string): void {
    if (this.era === 'modern') {
      throw new McpError(`${method}: 2026-07-28 has no ${method}; use client.listen({ resources: [uri] })`);
    }
  }

  #list<T>(
    method: string,
    capability: CapabilityPath,
    parse: (raw: unknown) => Page<T>,
    options?: CallOptions,
  ): Promise<T[]> {
    const refusal = this.#connection.refusal(method, capability);
    if (refusal) return Promise.reject(refusal);
    return collectPages(method, this.#maxPages, (cursor) =>
      this.#connection.request(method, cursor === undefined ? undefined : { cursor }, parse, options),
    );
  }

  /**
   * One request, refused before it is sent when the client is not connected or,
   * for a `capability`, when the server did not declare it.
   */
  #request<T>(
    method: string,
    capability: CapabilityPath | undefined,
    params: Record<string, unknown> | undefined,
    parse: (raw: unknown) => T,
    options?: CallOptions,
  ): Promise<T> {
    const refusal = this.#connection.refusal(method, capability);
    if (refusal) return Promise.reject(refusal);
    return this.#connection.request(method, params, parse, options);
  }
}
