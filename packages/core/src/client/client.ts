import { CapabilityError } from '../errors/capability-error.js';
import { McpError } from '../errors/mcp-error.js';
import { ResourceNotFoundError } from '../errors/resource-not-found-error.js';
import { RpcError } from '../errors/rpc-error.js';
import { SessionExpiredError } from '../errors/session-expired-error.js';
import type { ServerCapabilities } from '../protocol/capabilities.js';
import type { PromptReference, ResourceTemplateReference } from '../protocol/completion.js';
import { ErrorCode } from '../protocol/error-codes.js';
import type { Implementation } from '../protocol/implementation.js';
import type { LoggingLevel } from '../protocol/logging.js';
import type { Prompt } from '../protocol/prompts.js';
import type { Resource, ResourceTemplate } from '../protocol/resources.js';
import type { Tool } from '../protocol/tools.js';
import { isModernProtocolVersion } from '../protocol/versions.js';
import type { Transport } from '../transport/transport.js';
import { type CapabilityPath, clientCapabilities, hasCapability, modernCapabilities } from './capabilities.js';
import type { Era, ServerIdentity } from './era.js';
import { chooseEra } from './era-detection.js';
import { legacyEra } from './legacy-era.js';
import { Listeners } from './listeners.js';
import { ModernEra } from './modern-era.js';
import type { CallOptions, ClientOptions } from './options.js';
import * as limits from './options.js';
import { collectPages, type Page } from './pagination.js';
import * as parsers from './parsers.js';
import { ResultCache } from './result-cache.js';
import type { Completion, PromptResult, ReadResourceResult, ToolResult } from './results.js';
import { RpcChannel } from './rpc-channel.js';
import { ServerRequests } from './server-requests.js';
import type { SessionSnapshot } from './session.js';
import type { ListenFilter, Subscription } from './subscription.js';
import { ToolRegistry } from './tool-registry.js';

const DEFAULT_CLIENT_INFO: Implementation = { name: '@mcp/core', version: '0.1.0' };

/** `Symbol.asyncDispose` where the runtime has it, else the well-known registry symbol. */
const asyncDispose: typeof Symbol.asyncDispose = Symbol.asyncDispose ?? Symbol.for('Symbol.asyncDispose');

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
  readonly #transport: Transport;
  readonly #channel: RpcChannel;
  readonly #modern: ModernEra;
  readonly #listeners = new Listeners();
  readonly #cache = new ResultCache();
  readonly #tools = new ToolRegistry();
  readonly #maxPages: number;
  /** Resources subscribed to (legacy), so a renewed session can subscribe again. */
  readonly #subscriptions = new Set<string>();
  #era: Era = legacyEra;
  #server: ServerIdentity | undefined;
  #logLevel: LoggingLevel | undefined;
  #connecting: Promise<void> | undefined;
  #renewing: Promise<void> | undefined;
  /** Counts session renewals, so a late 404 does not start another one. */
  #generation = 0;

  constructor(transport: Transport, options: ClientOptions = {}) {
    this.#options = options;
    this.#transport = transport;
    this.#maxPages = options.limits?.maxPages ?? limits.DEFAULT_MAX_PAGES;
    const requests = new ServerRequests(options);
    this.#modern = new ModernEra({
      clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
      capabilities: modernCapabilities(clientCapabilities(options)),
      requests,
      maxRounds: options.limits?.maxInputRounds ?? limits.DEFAULT_MAX_INPUT_ROUNDS,
      cancelsByClosing: transport.cancelsByClosing === true,
      logLevel: () => this.#logLevel,
      extraHeaders: (method, params) =>
        method === 'tools/call' && typeof params?.name === 'string'
          ? this.#tools.headers(params.name, (params.arguments ?? {}) as Record<string, unknown>)
          : {},
    });
    this.#channel = new RpcChannel(
      transport,
      {
        onRequest: (request, signal) => requests.handle(request.method, request.params, signal),
        onNotification: ({ method, params }) => {
          this.#cache.invalidate(method, params);
          this.#listeners.route(method, params);
          options.onNotification?.(method, params);
        },
        onError: (error) => options.onError?.(error),
      },
      {
        requestTimeout: options.requestTimeout ?? limits.DEFAULT_REQUEST_TIMEOUT,
        maxConcurrentHandlers: options.limits?.maxConcurrentHandlers ?? limits.DEFAULT_MAX_CONCURRENT_HANDLERS,
        closeGrace: options.limits?.closeGrace ?? limits.DEFAULT_CLOSE_GRACE,
      },
    );
  }

  /** The negotiated protocol revision; undefined until `connect()` succeeds. */
  get protocolVersion(): string | undefined {
    return this.#server?.protocolVersion;
  }

  /** Which protocol era the server speaks: `modern` (2026-07-28) or `legacy` (the handshake revisions). */
  get era(): Era['kind'] {
    return this.#era.kind;
  }

  get serverInfo(): Implementation | undefined {
    return this.#server?.serverInfo;
  }

  get serverCapabilities(): ServerCapabilities | undefined {
    return this.#server?.capabilities;
  }

  /** Guidance from the server on how to use it, e.g. for a system prompt. */
  get instructions(): string | undefined {
    return this.#server?.instructions;
  }

  /**
   * A serialisable snapshot of the connected session, to `resume` it in another
   * client (e.g. the next invocation of a Worker). Undefined until connected.
   */
  get session(): SessionSnapshot | undefined {
    const server = this.#server;
    if (!server) return undefined;
    const sessionId = this.#transport.sessionId;
    return {
      protocolVersion: server.protocolVersion,
      ...(sessionId !== undefined && { sessionId }),
      serverInfo: server.serverInfo,
      capabilities: server.capabilities,
      ...(server.instructions !== undefined && { instructions: server.instructions }),
    };
  }

  /**
   * Finds the server's era and opens the session (or, with `resume`, continues
   * one). On failure — including a server that speaks no version we support
   * (`UnsupportedVersionError`) — the client is closed and the error thrown.
   */
  connect(options: CallOptions = {}): Promise<void> {
    this.#connecting ??= this.#connect(options);
    return this.#connecting;
  }

  async #connect(options: CallOptions): Promise<void> {
    this.#channel.start();
    const { resume } = this.#options;
    try {
      if (resume) {
        this.#era = isModernProtocolVersion(resume.protocolVersion) ? this.#modern : legacyEra;
        this.#started(resume, resume.sessionId);
      } else {
        const choice = await chooseEra(
          this.#transport,
          this.#connectContext(options),
          { legacy: legacyEra, modern: this.#modern },
          this.#options.limits?.probeTimeout ?? limits.DEFAULT_PROBE_TIMEOUT,
        );
        this.#era = choice.era;
        this.#started(choice.server);
      }
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  #connectContext(options: CallOptions) {
    return {
      channel: this.#channel,
      clientInfo: this.#options.clientInfo ?? DEFAULT_CLIENT_INFO,
      capabilities: clientCapabilities(this.#options),
      protocolVersion: this.#options.protocolVersion,
      call: options,
    };
  }

  #started(server: ServerIdentity, sessionId?: string): void {
    this.#server = server;
    this.#transport.sessionStarted?.({
      protocolVersion: server.protocolVersion,
      era: this.#era.kind,
      ...(sessionId !== undefined && { sessionId }),
    });
  }

  /**
   * Every tool, following pagination to the end. In the 2026-07-28 era a tool
   * whose `x-mcp-header` annotations break the rules is left out (`onWarning`).
   */
  async listTools(options?: CallOptions): Promise<Tool[]> {
    const tools = await this.#list('tools/list', 'tools', parsers.parseTools, options);
    if (this.#era.kind !== 'modern') return tools;
    return this.#tools.accept(tools, (message) => this.#options.onWarning?.(message));
  }

  listResources(options?: CallOptions): Promise<Resource[]> {
    return this.#list('resources/list', 'resources', parsers.parseResources, options);
  }

  listResourceTemplates(options?: CallOptions): Promise<ResourceTemplate[]> {
    return this.#list('resources/templates/list', 'resources', parsers.parseTemplates, options);
  }

  listPrompts(options?: CallOptions): Promise<Prompt[]> {
    return this.#list('prompts/list', 'prompts', parsers.parsePrompts, options);
  }

  /** Calls a tool; omitted `args` are sent as `{}`. A tool's own failure is `isError: true`, not a throw. */
  async callTool(name: string, args: Record<string, unknown> = {}, options?: CallOptions): Promise<ToolResult> {
    const call = () => this.#gated('tools/call', 'tools', { name, arguments: args }, parsers.parseCallTool, options);
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
      return await this.#gated('resources/read', 'resources', { uri }, parsers.parseRead, options);
    } catch (error) {
      const notFound = error instanceof RpcError && (error.code === -32002 || error.code === ErrorCode.InvalidParams);
      throw notFound ? new ResourceNotFoundError(uri, error) : error;
    }
  }

  /** Renders a prompt, its content parts flattened and binary data decoded. */
  getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<PromptResult> {
    const params = { name, ...(args && { arguments: args }) };
    return this.#gated('prompts/get', 'prompts', params, parsers.parsePrompt, options);
  }

  /**
   * Suggestions for one argument of a prompt or resource template; `context` holds
   * arguments already chosen (2025-06-18 on).
   */
  complete(
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
    return this.#gated('completion/complete', this.#completionCapability(), params, parsers.parseComplete, options);
  }

  /** Checks the server answers: `ping` in the legacy era, `server/discover` in 2026-07-28 (which has no ping). */
  ping(options?: CallOptions): Promise<void> {
    const method = this.#era.kind === 'modern' ? 'server/discover' : 'ping';
    return this.#call(method, undefined, () => undefined, options);
  }

  /**
   * The level of log messages the server sends. Legacy: `logging/setLevel`;
   * 2026-07-28: stamped on every later request as `_meta` logLevel.
   */
  async setLoggingLevel(level: LoggingLevel, options?: CallOptions): Promise<void> {
    if (this.#era.kind === 'modern') {
      const refusal = this.#refusal('logging/setLevel', 'logging');
      if (refusal) throw refusal;
      this.#logLevel = level;
      return;
    }
    await this.#gated('logging/setLevel', 'logging', { level }, parsers.parseEmpty, options);
  }

  /** Legacy `resources/subscribe`; in every era `listen({ resources })` does the same. */
  async subscribeResource(uri: string, options?: CallOptions): Promise<void> {
    this.#requireLegacy('resources/subscribe');
    await this.#gated('resources/subscribe', 'resources.subscribe', { uri }, parsers.parseEmpty, options);
    this.#subscriptions.add(uri);
  }

  async unsubscribeResource(uri: string, options?: CallOptions): Promise<void> {
    this.#requireLegacy('resources/unsubscribe');
    await this.#gated('resources/unsubscribe', 'resources.subscribe', { uri }, parsers.parseEmpty, options);
    this.#subscriptions.delete(uri);
  }

  /**
   * Change notifications as a subscription: `for await (const event of sub)`.
   * Modern: a `subscriptions/listen` stream (reopened when it drops). Legacy: the
   * same events from the session's notifications and `resources/subscribe`.
   */
  async listen(filter: ListenFilter): Promise<Subscription> {
    const refusal = this.#refusal('subscriptions/listen');
    if (refusal) throw refusal;
    if (this.#era.kind === 'legacy') {
      return this.#listeners.openLegacy(
        filter,
        this.#server?.capabilities,
        (uri) => this.subscribeResource(uri),
        (uri) => this.unsubscribeResource(uri),
      );
    }
    return this.#listeners.openModern(filter, (notifications, signal, onRequestId) =>
      this.#era.request(
        this.#channel,
        'subscriptions/listen',
        { notifications },
        {
          parse: parsers.parseAny,
          signal,
          timeout: 0,
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
    return this.#call(method, params, parsers.parseObject(method), options);
  }

  /** Tells the server the roots changed (when `roots` is a function; legacy era). */
  notifyRootsChanged(): Promise<void> {
    const refusal = this.#refusal('notifications/roots/list_changed');
    if (refusal) return Promise.reject(refusal);
    if (this.#era.kind === 'modern') return Promise.resolve(); // roots travel with each request's input answers
    return this.#channel.notify('notifications/roots/list_changed');
  }

  /**
   * Stops reading, fails pending calls with `ClientClosedError`, aborts handler
   * signals, waits a short grace for handlers, closes the transport. Idempotent.
   */
  async close(): Promise<void> {
    this.#listeners.closeAll();
    await this.#channel.close();
  }

  [asyncDispose](): Promise<void> {
    return this.close();
  }

  /** 2024-11-05 had no `completions` capability; servers then offered completion with prompts or resources. */
  #completionCapability(): CapabilityPath {
    const caps = this.#server?.capabilities;
    if (this.protocolVersion === '2024-11-05' && !hasCapability(caps, 'completions')) {
      return hasCapability(caps, 'prompts') ? 'prompts' : 'resources';
    }
    return 'completions';
  }

  #requireLegacy(method: string): void {
    if (this.#era.kind === 'modern') {
      throw new McpError(`${method}: 2026-07-28 has no ${method}; use client.listen({ resources: [uri] })`);
    }
  }

  #list<T>(
    method: string,
    capability: CapabilityPath,
    parse: (raw: unknown) => Page<T>,
    options?: CallOptions,
  ): Promise<T[]> {
    const refusal = this.#refusal(method, capability);
    if (refusal) return Promise.reject(refusal);
    return collectPages(method, this.#maxPages, (cursor) =>
      this.#request(method, cursor === undefined ? undefined : { cursor }, parse, options),
    );
  }

  #gated<T>(
    method: string,
    capability: CapabilityPath,
    params: Record<string, unknown>,
    parse: (raw: unknown) => T,
    options?: CallOptions,
  ): Promise<T> {
    const refusal = this.#refusal(method, capability);
    if (refusal) return Promise.reject(refusal);
    return this.#request(method, params, parse, options);
  }

  #call<T>(
    method: string,
    params: Record<string, unknown> | undefined,
    parse: (raw: unknown) => T,
    options?: CallOptions,
  ): Promise<T> {
    const refusal = this.#refusal(method);
    if (refusal) return Promise.reject(refusal);
    return this.#request(method, params, parse, options);
  }

  /**
   * Sends through the era, through the TTL cache where results are cacheable.
   * When the server says the session expired (HTTP 404): one new handshake —
   * shared by every call that hit it — and one resend.
   */
  async #request<T>(
    method: string,
    params: Record<string, unknown> | undefined,
    parse: (raw: unknown) => T,
    options: CallOptions = {},
  ): Promise<T> {
    const cacheable = ResultCache.cacheable(method) && options.cache !== false;
    const key = cacheable ? ResultCache.key(method, params) : '';
    const credential = () => this.#transport.credentialKey?.();
    const hit = cacheable ? await this.#cache.get(key, credential) : undefined;
    if (hit) return hit.value as T;
    let raw: unknown;
    let retried = false;
    const generation = this.#generation;
    const send = () =>
      this.#era.request(this.#channel, method, params, {
        ...options,
        parse: (result) => {
          raw = result;
          return parse(result);
        },
        onInputRound: () => {
          retried = true;
        },
      });
    let value: T;
    try {
      value = await send();
    } catch (error) {
      if (!(error instanceof SessionExpiredError)) throw error;
      // A 404 for a request sent before a renewal that already happened needs only the resend.
      if (generation === this.#generation) await this.#renewSession(options);
      value = await send();
    }
    // Results of input rounds are never cached (2026-07-28 §Caching).
    if (cacheable && !retried) this.#cache.set(key, value, raw, await credential());
    return value;
  }

  #renewSession(options: CallOptions): Promise<void> {
    this.#renewing ??= (async () => {
      try {
        const server = await this.#era.connect(this.#connectContext(options.signal ? { signal: options.signal } : {}));
        this.#started(server);
        this.#generation++;
        this.#cache.clear();
        for (const uri of this.#subscriptions) {
          await this.#era.request(this.#channel, 'resources/subscribe', { uri }, { parse: parsers.parseEmpty });
        }
      } finally {
        this.#renewing = undefined;
      }
    })();
    return this.#renewing;
  }

  /** Why `method` must not be sent now, checked before anything goes on the wire. */
  #refusal(method: string, capability?: CapabilityPath): Error | undefined {
    if (this.#channel.ended) return undefined; // the channel rejects with the reason it ended
    if (!this.#server) return new McpError(`${method}: call connect() first`);
    if (capability && !hasCapability(this.#server.capabilities, capability)) {
      return new CapabilityError(capability, method);
    }
    return undefined;
  }
}
