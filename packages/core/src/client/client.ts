import { CapabilityError } from '../errors/capability-error.js';
import { McpError } from '../errors/mcp-error.js';
import { SessionExpiredError } from '../errors/session-expired-error.js';
import type { ServerCapabilities } from '../protocol/capabilities.js';
import { CompleteResultSchema, type PromptReference, type ResourceTemplateReference } from '../protocol/completion.js';
import type { Implementation } from '../protocol/implementation.js';
import type { LoggingLevel } from '../protocol/logging.js';
import { EmptyResultSchema } from '../protocol/ping.js';
import { GetPromptResultSchema, ListPromptsResultSchema, type Prompt } from '../protocol/prompts.js';
import {
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ReadResourceResultSchema,
  type Resource,
  type ResourceTemplate,
} from '../protocol/resources.js';
import { CallToolResultSchema, ListToolsResultSchema, type Tool } from '../protocol/tools.js';
import type { Transport } from '../transport/transport.js';
import { type CapabilityPath, clientCapabilities, hasCapability } from './capabilities.js';
import type { Era, ServerIdentity } from './era.js';
import { legacyEra } from './legacy-era.js';
import {
  type CallOptions,
  type ClientOptions,
  DEFAULT_CLOSE_GRACE,
  DEFAULT_MAX_CONCURRENT_HANDLERS,
  DEFAULT_MAX_PAGES,
  DEFAULT_REQUEST_TIMEOUT,
} from './options.js';
import { collectPages, type Page } from './pagination.js';
import { resultParser } from './parse-result.js';
import { toCompletion, toPromptResult, toReadResourceResult, toToolResult } from './result-mappers.js';
import type { Completion, PromptResult, ReadResourceResult, ToolResult } from './results.js';
import { RpcChannel } from './rpc-channel.js';
import { ServerRequests } from './server-requests.js';
import type { SessionSnapshot } from './session.js';

const DEFAULT_CLIENT_INFO: Implementation = { name: '@mcp/core', version: '0.1.0' };

const parseEmpty = resultParser('ping', EmptyResultSchema, () => undefined);
const parseCallTool = resultParser('tools/call', CallToolResultSchema, toToolResult);
const parseRead = resultParser('resources/read', ReadResourceResultSchema, toReadResourceResult);
const parsePrompt = resultParser('prompts/get', GetPromptResultSchema, toPromptResult);
const parseComplete = resultParser('completion/complete', CompleteResultSchema, toCompletion);
const parseTools = resultParser('tools/list', ListToolsResultSchema, (r) => page(r.tools, r.nextCursor));
const parseResources = resultParser('resources/list', ListResourcesResultSchema, (r) =>
  page(r.resources, r.nextCursor),
);
const parseTemplates = resultParser('resources/templates/list', ListResourceTemplatesResultSchema, (r) =>
  page(r.resourceTemplates, r.nextCursor),
);
const parsePrompts = resultParser('prompts/list', ListPromptsResultSchema, (r) => page(r.prompts, r.nextCursor));

function page<T>(items: readonly T[], nextCursor: string | undefined): Page<T> {
  return { items, nextCursor };
}

/** `Symbol.asyncDispose` where the runtime has it, else the well-known registry symbol. */
const asyncDispose: typeof Symbol.asyncDispose = Symbol.asyncDispose ?? Symbol.for('Symbol.asyncDispose');

/**
 * One handle on one MCP server, whatever revision it speaks. Safe for concurrent
 * calls. Handlers go in the options, so the capabilities the client declares are
 * right from the first message.
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
  /** Resources subscribed to, so a renewed session can subscribe again. */
  readonly #subscriptions = new Set<string>();
  #renewing: Promise<void> | undefined;
  readonly #requests: ServerRequests;
  readonly #maxPages: number;
  #era: Era = legacyEra;
  #server: ServerIdentity | undefined;
  #connecting: Promise<void> | undefined;

  constructor(transport: Transport, options: ClientOptions = {}) {
    this.#options = options;
    this.#transport = transport;
    this.#requests = new ServerRequests(options);
    this.#maxPages = options.limits?.maxPages ?? DEFAULT_MAX_PAGES;
    this.#channel = new RpcChannel(
      transport,
      {
        onRequest: (request, signal) => this.#requests.handle(request.method, request.params, signal),
        onNotification: ({ method, params }) => options.onNotification?.(method, params),
        onError: (error) => options.onError?.(error),
      },
      {
        requestTimeout: options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT,
        maxConcurrentHandlers: options.limits?.maxConcurrentHandlers ?? DEFAULT_MAX_CONCURRENT_HANDLERS,
        closeGrace: options.limits?.closeGrace ?? DEFAULT_CLOSE_GRACE,
      },
    );
  }

  /** The negotiated protocol revision; undefined until `connect()` succeeds. */
  get protocolVersion(): string | undefined {
    return this.#server?.protocolVersion;
  }

  /** Which protocol era the server speaks. */
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
   * Opens the session. On failure, including a server that speaks no version we
   * support (`UnsupportedVersionError`), the client is closed and the error thrown.
   */
  connect(options: CallOptions = {}): Promise<void> {
    this.#connecting ??= this.#connect(options);
    return this.#connecting;
  }

  async #connect(options: CallOptions): Promise<void> {
    this.#channel.start();
    const { resume } = this.#options;
    if (resume) {
      this.#server = resume;
      this.#transport.sessionStarted?.({
        protocolVersion: resume.protocolVersion,
        ...(resume.sessionId !== undefined && { sessionId: resume.sessionId }),
      });
      return;
    }
    try {
      await this.#handshake(options);
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  async #handshake(options: CallOptions): Promise<void> {
    this.#server = await this.#era.connect({
      channel: this.#channel,
      clientInfo: this.#options.clientInfo ?? DEFAULT_CLIENT_INFO,
      capabilities: clientCapabilities(this.#options),
      protocolVersion: this.#options.protocolVersion,
      call: options,
    });
    this.#transport.sessionStarted?.({ protocolVersion: this.#server.protocolVersion });
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

  /** Every tool, following pagination to the end. */
  listTools(options?: CallOptions): Promise<Tool[]> {
    return this.#list('tools/list', 'tools', parseTools, options);
  }

  listResources(options?: CallOptions): Promise<Resource[]> {
    return this.#list('resources/list', 'resources', parseResources, options);
  }

  listResourceTemplates(options?: CallOptions): Promise<ResourceTemplate[]> {
    return this.#list('resources/templates/list', 'resources', parseTemplates, options);
  }

  listPrompts(options?: CallOptions): Promise<Prompt[]> {
    return this.#list('prompts/list', 'prompts', parsePrompts, options);
  }

  /** Calls a tool; omitted `args` are sent as `{}`. A tool's own failure is `isError: true`, not a throw. */
  callTool(name: string, args: Record<string, unknown> = {}, options?: CallOptions): Promise<ToolResult> {
    return this.#gated('tools/call', 'tools', { name, arguments: args }, parseCallTool, options);
  }

  /** Reads a resource; `blob` contents arrive decoded to bytes. */
  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    return this.#gated('resources/read', 'resources', { uri }, parseRead, options);
  }

  /** Renders a prompt, its content parts flattened and binary data decoded. */
  getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<PromptResult> {
    return this.#gated('prompts/get', 'prompts', { name, ...(args && { arguments: args }) }, parsePrompt, options);
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
    return this.#gated('completion/complete', this.#completionCapability(), params, parseComplete, options);
  }

  ping(options?: CallOptions): Promise<void> {
    return this.#call('ping', undefined, parseEmpty, options);
  }

  setLoggingLevel(level: LoggingLevel, options?: CallOptions): Promise<void> {
    return this.#gated('logging/setLevel', 'logging', { level }, parseEmpty, options);
  }

  async subscribeResource(uri: string, options?: CallOptions): Promise<void> {
    await this.#gated('resources/subscribe', 'resources.subscribe', { uri }, parseEmpty, options);
    this.#subscriptions.add(uri);
  }

  async unsubscribeResource(uri: string, options?: CallOptions): Promise<void> {
    await this.#gated('resources/unsubscribe', 'resources.subscribe', { uri }, parseEmpty, options);
    this.#subscriptions.delete(uri);
  }

  /** Tells the server the roots changed (when `roots` is a function). */
  notifyRootsChanged(): Promise<void> {
    const refusal = this.#refusal('notifications/roots/list_changed');
    if (refusal) return Promise.reject(refusal);
    return this.#channel.notify('notifications/roots/list_changed');
  }

  /**
   * Stops reading, fails pending calls with `ClientClosedError`, aborts handler
   * signals, waits a short grace for handlers, closes the transport. Idempotent.
   */
  close(): Promise<void> {
    return this.#channel.close();
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
   * Sends through the era. When the server says the session expired (HTTP 404),
   * one new handshake — shared by every call that hit it — and one resend.
   */
  async #request<T>(
    method: string,
    params: Record<string, unknown> | undefined,
    parse: (raw: unknown) => T,
    options: CallOptions = {},
  ): Promise<T> {
    const send = () => this.#era.request(this.#channel, method, params, { ...options, parse });
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof SessionExpiredError)) throw error;
      await this.#renewSession(options);
      return send();
    }
  }

  #renewSession(options: CallOptions): Promise<void> {
    this.#renewing ??= (async () => {
      try {
        await this.#handshake(options.signal ? { signal: options.signal } : {});
        for (const uri of this.#subscriptions) {
          await this.#era.request(this.#channel, 'resources/subscribe', { uri }, { parse: parseEmpty });
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
