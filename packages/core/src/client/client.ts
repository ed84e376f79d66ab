import type { ServerCapabilities } from '../protocol/capabilities.js';
import type { Implementation } from '../protocol/implementation.js';
import type { LoggingLevel } from '../protocol/logging.js';
import type { Prompt } from '../protocol/prompts.js';
import type { Resource, ResourceTemplate } from '../protocol/resources.js';
import type { Tool, ToolResult } from '../protocol/tools.js';
import type { Transport } from '../transport/transport.js';
import { asyncDispose } from '../util/dispose.js';
import type { ListenFilter, Subscription } from './listen/subscription.js';
import type { CallOptions, CallToolOptions, ClientOptions, EraKind } from './options.js';
import type { Completion, CompletionRequest, PromptResult, ReadResourceResult } from './results/catalogue.js';
import { parseObject } from './results/decode.js';
import { Session } from './session.js';
import type { SessionSnapshot } from './session-snapshot.js';
import type { Tasks } from './tasks/task-api.js';

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
  readonly #session: Session;

  /**
   * The tasks the server runs for this client, for work that outlives a call
   * or a process: `start` one, `get` its state, wait for its `result`,
   * `cancel` it, `list` them (2025-11-25). `callTool` follows a task itself.
   * The tasks module loads at first use: each method here loads it, then calls its own.
   */
  readonly tasks: Tasks = {
    start: async (name, args, options) => (await this.#session.tasks()).start(name, args, options),
    get: async (taskId, options) => (await this.#session.tasks()).get(taskId, options),
    result: async (taskId, options) => (await this.#session.tasks()).result(taskId, options),
    cancel: async (taskId, options) => (await this.#session.tasks()).cancel(taskId, options),
    list: async (options) => (await this.#session.tasks()).list(options),
  };

  /** A client over `transport`; nothing is sent until `connect()`. */
  constructor(transport: Transport, options: ClientOptions = {}) {
    this.#session = new Session(transport, options);
  }

  /** The negotiated protocol revision; undefined until `connect()` succeeds. */
  get protocolVersion(): string | undefined {
    return this.#session.server?.protocolVersion;
  }

  /** Which protocol era the server speaks: `modern` (2026-07-28) or `legacy` (the handshake revisions). */
  get era(): EraKind {
    return this.#session.era;
  }

  /** The server's name, version and the like, as it announced itself; undefined until connected. */
  get serverInfo(): Implementation | undefined {
    return this.#session.server?.serverInfo;
  }

  /** What the server declared it supports; undefined until connected. Calls it lacks throw `CapabilityError`. */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.#session.server?.capabilities;
  }

  /** Guidance from the server on how to use it, e.g. for a system prompt. */
  get instructions(): string | undefined {
    return this.#session.server?.instructions;
  }

  /**
   * A serialisable snapshot of the connected session, to `resume` it in another
   * client (e.g. the next invocation of a Worker). Undefined until connected.
   */
  get session(): SessionSnapshot | undefined {
    return this.#session.snapshot();
  }

  /**
   * Finds the server's era and opens the session (or, with `resume`, continues
   * one). On failure — including a server that speaks no version we support
   * (`UnsupportedVersionError`) — the client is closed and the error thrown.
   */
  connect(options: CallOptions = {}): Promise<void> {
    return this.#session.connect(options);
  }

  /**
   * Every tool, following pagination to the end. In the 2026-07-28 era a tool
   * whose `x-mcp-header` annotations break the rules is left out (`onWarning`).
   */
  listTools(options?: CallOptions): Promise<Tool[]> {
    return this.#session.listTools(options);
  }

  /** Every resource, following pagination to the end. */
  async listResources(options?: CallOptions): Promise<Resource[]> {
    return (await this.#session.catalogue()).listResources(this.#session, options);
  }

  /** Every resource template, following pagination to the end. */
  async listResourceTemplates(options?: CallOptions): Promise<ResourceTemplate[]> {
    return (await this.#session.catalogue()).listResourceTemplates(this.#session, options);
  }

  /** Every prompt, following pagination to the end. */
  async listPrompts(options?: CallOptions): Promise<Prompt[]> {
    return (await this.#session.catalogue()).listPrompts(this.#session, options);
  }

  /**
   * Calls a tool; omitted `args` are sent as `{}`. A tool's own failure is
   * `isError: true`, not a throw. `options.meta` is sent as the request's `_meta`.
   */
  callTool(name: string, args: Record<string, unknown> = {}, options?: CallToolOptions): Promise<ToolResult> {
    return this.#session.callTool(name, args, options);
  }

  /** Reads a resource; `blob` contents arrive decoded to bytes. A missing resource is a `ResourceNotFoundError`. */
  async readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    return (await this.#session.catalogue()).readResource(this.#session, uri, options);
  }

  /** Renders a prompt, its content parts flattened and binary data decoded. */
  async getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<PromptResult> {
    return (await this.#session.catalogue()).getPrompt(this.#session, name, args, options);
  }

  /**
   * Suggestions for one argument of a prompt or resource template, as the
   * server ranks them. `context.arguments` holds the values already chosen for
   * its other arguments (2025-06-18 on).
   */
  async complete(request: CompletionRequest, options?: CallOptions): Promise<Completion> {
    return (await this.#session.catalogue()).complete(this.#session, request, options);
  }

  /** Checks the server answers: `ping` in the legacy era, `server/discover` in 2026-07-28 (which has no ping). */
  ping(options?: CallOptions): Promise<void> {
    return this.#session.ping(options);
  }

  /**
   * The level of log messages the server sends. Legacy: `logging/setLevel`;
   * 2026-07-28: stamped on every later request as `_meta` logLevel.
   */
  setLoggingLevel(level: LoggingLevel, options?: CallOptions): Promise<void> {
    return this.#session.setLoggingLevel(level, options);
  }

  /** Legacy `resources/subscribe`; in every era `listen({ resources })` does the same. */
  subscribeResource(uri: string, options?: CallOptions): Promise<void> {
    return this.#session.subscribe(uri, options);
  }

  /** Legacy `resources/unsubscribe`: stops the updates `subscribeResource` asked for. */
  unsubscribeResource(uri: string, options?: CallOptions): Promise<void> {
    return this.#session.unsubscribe(uri, options);
  }

  /**
   * Change notifications as a subscription: `for await (const event of sub)`.
   * Modern: a `subscriptions/listen` stream (reopened when it drops). Legacy: the
   * same events from the session's notifications and `resources/subscribe`.
   */
  listen(filter: ListenFilter): Promise<Subscription> {
    return this.#session.listen(filter);
  }

  /**
   * Sends any request — an extension's method, say — through the era (the
   * 2026-07-28 envelope and headers, MRTR rounds, session renewal) and returns
   * its raw result object. No capability gating: the caller knows what it asks.
   */
  request(method: string, params?: Record<string, unknown>, options?: CallOptions): Promise<Record<string, unknown>> {
    return this.#session.request(method, undefined, params, parseObject(method), options);
  }

  /** Tells the server the roots changed (when `roots` is a function; legacy era). */
  notifyRootsChanged(): Promise<void> {
    return this.#session.notifyRootsChanged();
  }

  /**
   * Stops reading, fails pending calls with `ClientClosedError`, aborts handler
   * signals, waits a short grace for handlers, closes the transport. Idempotent.
   */
  close(): Promise<void> {
    return this.#session.close();
  }

  /** `await using client = …` closes it at the end of the scope. */
  [asyncDispose](): Promise<void> {
    return this.close();
  }
}
