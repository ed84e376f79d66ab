import { CapabilityError } from '../errors/capability-error.js';
import { McpError } from '../errors/mcp-error.js';
import { OutputValidationError } from '../errors/output-validation-error.js';
import { RpcError } from '../errors/rpc-error.js';
import { SessionExpiredError } from '../errors/session-expired-error.js';
import { freshnessMs } from '../protocol/cache.js';
import { ErrorCode } from '../protocol/error-codes.js';
import type { JsonRpcNotification } from '../protocol/jsonrpc.js';
import type { LoggingLevel } from '../protocol/logging.js';
import type { Tool, ToolResult } from '../protocol/tools.js';
import { type Transport, type TransportHooks, transportHooks } from '../transport/transport.js';
import { lazy } from '../util/lazy.js';
import type * as AnsweringModule from './answering/index.js';
import type { Answering } from './answering/index.js';
import { type CapabilityPath, clientCapabilities, hasCapability } from './capabilities.js';
import type * as Catalogue from './catalogue/index.js';
import type { ConnectContext, Era, EraRequestOptions, ServerIdentity } from './eras/era.js';
import { chooseEra, type Eras, eraFor, sharedEraCache } from './eras/era-detection.js';
import type { EraHost } from './eras/era-host.js';
import { LegacyEra } from './eras/legacy-era.js';
import { ModernEra } from './eras/modern-era.js';
import type { ListenFilter, Subscription } from './listen/subscription.js';
import {
  type CallOptions,
  type CallToolOptions,
  type ClientOptions,
  DEFAULT_CLIENT_INFO,
  DEFAULT_CLOSE_GRACE,
  DEFAULT_MAX_CACHE_ENTRIES,
  DEFAULT_MAX_TOTAL_TIMEOUT,
  DEFAULT_PROBE_TIMEOUT,
  DEFAULT_REQUEST_TIMEOUT,
  type EraKind,
} from './options.js';
import { collectPages, type Page } from './pagination.js';
import { ResultCache } from './result-cache.js';
import { parseCallTool, parseTools } from './results/decode.js';
import { type CallBounds, RpcChannel } from './rpc/rpc-channel.js';
import type { SessionSnapshot } from './session-snapshot.js';
import type { TaskAnswer, TaskClient, ToolCall } from './tasks/index.js';

/**
 * The client's on-demand modules, each loaded the first time a program needs
 * it, so a bundler splits it off. Answering the server runs its requests'
 * handlers, the input rounds and `listen()`. The catalogue reads resources and
 * prompts and asks for completions. Output validation loads at the first call of
 * a tool that listed an `outputSchema`. Tasks load for a `tools/call` answered
 * with a task, a 2025-11-25 server that declared `tasks`, or `client.tasks`.
 */
const answering = lazy(() => import('./answering/index.js'));
const catalogue = lazy(() => import('./catalogue/index.js'));
const outputValidation = lazy(() => import('./output-validation/index.js'));
const tasks = lazy(() => import('./tasks/index.js'));

/** Methods whose results carry cache hints (2026-07-28 §Caching). */
const CACHEABLE = new Set([
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

/**
 * The Client's session with its server, built from the transport and the
 * options: the JSON-RPC channel and the eras under it; which era the server
 * speaks and what it learned (connect, resume, snapshot); and the one path every
 * request takes — the capability check before anything is sent, the TTL cache,
 * the era, and one shared renewal when the server says the session expired.
 * Whatever differs between eras is the era's (`Era`): the Session never asks
 * which era it has. What the server starts goes to the answering module,
 * loaded when first needed.
 */
export class Session {
  readonly #transport: Transport;
  readonly #hooks: TransportHooks;
  readonly #options: ClientOptions;
  readonly #channel: RpcChannel;
  readonly #eras: Eras;
  /** The tools of the last `listTools()`: a call's result is checked against the `outputSchema` its tool listed. */
  #listed: readonly Tool[] = [];
  #answering: Answering | undefined;
  /** Created on the first result that carries a TTL (only 2026-07-28 servers send one). */
  #cache: ResultCache | undefined;
  /** The client does something with messages the server starts on its own (SessionInfo.serverMessages). */
  #serverMessages: boolean;
  #era: Era;
  #server: ServerIdentity | undefined;
  #connecting: Promise<void> | undefined;
  /** The session renewal under way: at most one at a time, shared by every call that needs it. */
  #renewing: Promise<void> | undefined;
  /** Counts session renewals, so a late 404 does not start another one. */
  #generation = 0;

  constructor(transport: Transport, options: ClientOptions) {
    this.#transport = transport;
    this.#hooks = transportHooks(transport);
    this.#options = options;
    const { sampling, elicitation, roots, onNotification } = options;
    this.#serverMessages = Boolean(sampling || elicitation || roots || onNotification);
    this.#channel = new RpcChannel(
      transport,
      {
        onRequest: (request, signal) => this.#era.serverRequest(request, signal),
        onNotification: (notification) => this.#onNotification(notification),
        onError: (error) => options.onError?.(error),
        drain: (graceMs) => this.#answering?.drain(graceMs),
      },
      {
        requestTimeout: options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT,
        maxTotalTimeout: options.maxTotalTimeout ?? DEFAULT_MAX_TOTAL_TIMEOUT,
        closeGrace: options.limits?.closeGrace ?? DEFAULT_CLOSE_GRACE,
      },
    );
    // What the eras may use of this session: built once, shared by both.
    const server = () => this.#server;
    const host: EraHost = {
      get server() {
        return server();
      },
      request: (method, capability, params, parse, call) => this.request(method, capability, params, parse, call),
      options,
      channel: this.#channel,
      cancelsByClosing: this.#hooks.cancelsByClosing === true,
      answering: () => this.#answer(),
      loadedAnswering: () => this.#answering,
      openServerStream: () => {
        this.#serverMessages = true;
        this.#hooks.openServerStream?.();
      },
    };
    this.#eras = { legacy: new LegacyEra(host), modern: new ModernEra(host) };
    this.#era = this.#eras.legacy;
  }

  /** Which era the server speaks; `legacy` until `connect()` finds out. */
  get era(): EraKind {
    return this.#era.kind;
  }

  /** What the server said of itself when the session began; undefined until then. */
  get server(): ServerIdentity | undefined {
    return this.#server;
  }

  /** The catalogue module: the Client's resources, prompts and completion live there. */
  catalogue(): Promise<typeof Catalogue> {
    return catalogue();
  }

  /** Detects the era and opens the session, or continues `resume`; once. On failure, closes. */
  connect(options: CallOptions): Promise<void> {
    this.#connecting ??= (async () => {
      this.#channel.start();
      const { resume } = this.#options;
      // With handlers, load their module alongside the handshake: a notification that comes before a
      // call's answer then reaches onNotification before the call resolves. A failed load is tried again.
      const handlersReady = this.#serverMessages ? this.#answer().catch(() => undefined) : undefined;
      try {
        if (resume) {
          this.#era = eraFor(resume.protocolVersion, this.#eras);
          this.#started(resume, resume.sessionId);
        } else {
          const probeTimeout = this.#options.limits?.probeTimeout ?? DEFAULT_PROBE_TIMEOUT;
          const cache = this.#options.eraCache ?? sharedEraCache;
          const choice = await chooseEra(this.#transport, this.#context(options), this.#eras, {
            probeTimeout,
            cache,
          });
          this.#era = choice.era;
          this.#started(choice.server);
        }
        await handlersReady;
      } catch (error) {
        await this.close();
        throw error;
      }
    })();
    return this.#connecting;
  }

  /** A serialisable snapshot of the session (see `Client.session`). */
  snapshot(): SessionSnapshot | undefined {
    const server = this.#server;
    if (!server) return undefined;
    const sessionId = this.#hooks.sessionId;
    return {
      protocolVersion: server.protocolVersion,
      ...(sessionId !== undefined && { sessionId }),
      serverInfo: server.serverInfo,
      capabilities: server.capabilities,
      ...(server.instructions !== undefined && { instructions: server.instructions }),
    };
  }

  /**
   * One request, which fails before anything is sent when the client is not
   * connected or, for a `capability`, when the server did not declare it; then
   * through the TTL cache where results are cacheable (a method that is not pays
   * for none of it), and through the era, renewing an expired session once.
   */
  request<T>(
    method: string,
    capability: CapabilityPath | undefined,
    params: Record<string, unknown> | undefined,
    parse: (raw: unknown) => T,
    options: CallBounds = {},
  ): Promise<T> {
    const unmet = this.#unmetPrecondition(method, capability);
    if (unmet) return Promise.reject(unmet);
    const startedAt = performance.now();
    // Not async: the common request hands on the era's promise as it is, not wrapped in one more.
    return !CACHEABLE.has(method) || options.cache === false
      ? this.#send(method, params, { ...options, parse, startedAt })
      : this.#cached(method, params, parse, options, startedAt);
  }

  /** A cacheable request: the TTL cache's entry while it is fresh, else sent, and its result kept if it says so. */
  async #cached<T>(
    method: string,
    params: Record<string, unknown> | undefined,
    parse: (raw: unknown) => T,
    options: CallBounds,
    startedAt: number,
  ): Promise<T> {
    const key = `${method} ${JSON.stringify(params ?? {})}`;
    const credential = () => this.#hooks.credentialKey?.();
    const hit = this.#cache ? await this.#cache.get(key, credential) : undefined;
    if (hit) return hit.value as T;
    let raw: unknown;
    let retried = false;
    const value = await this.#send(method, params, {
      ...options,
      startedAt,
      parse: (result) => {
        raw = result;
        return parse(result);
      },
      onInputRound: () => {
        retried = true;
      },
    });
    // Results of input rounds are never cached (2026-07-28 §Caching).
    if (!retried && freshnessMs(raw as { ttlMs?: number }) > 0) {
      this.#cache ??= new ResultCache(this.#options.limits?.maxCacheEntries ?? DEFAULT_MAX_CACHE_ENTRIES);
      this.#cache.set(key, value, raw, await credential());
    }
    return value;
  }

  /**
   * Every item of a paginated list, each page a `request`: limits.maxPages,
   * maxListItems and maxListBytes bound the whole listing, and a refused cursor
   * starts the list over once (pagination.ts).
   */
  list<T>(
    method: string,
    capability: CapabilityPath,
    parse: (raw: unknown) => Page<T>,
    options?: CallOptions,
  ): Promise<T[]> {
    return collectPages(method, this.#options.limits, (cursor, restart, onReceived) => {
      // The server refused a cursor: what is cached of this list is stale too.
      if (restart) this.#cache?.forget(method);
      const params = cursor === undefined ? undefined : { cursor };
      return this.request(method, capability, params, parse, { ...options, onReceived });
    });
  }

  /**
   * Every tool the era accepts (`Era.acceptTools`), following pagination to the
   * end, remembered for `callTool`.
   */
  async listTools(options?: CallOptions): Promise<Tool[]> {
    const tools = await this.#era.acceptTools(await this.list('tools/list', 'tools', parseTools, options));
    this.#listed = tools;
    return [...tools];
  }

  /**
   * Calls a tool. When a 2026-07-28 server says our `Mcp-Param-*` headers
   * disagree with its schema (`HeaderMismatch`), the tools are listed again
   * (uncached) and the call sent once more. A task, whether the server's answer
   * in 2026-07-28 or asked of a 2025-11-25 server that declared `tasks`, goes to
   * the tasks module, which follows it to its result. The result of a tool
   * listed with an `outputSchema` is checked against it (`CallToolOptions.validateOutput`).
   */
  async callTool(name: string, args: Record<string, unknown>, options?: CallToolOptions): Promise<ToolResult> {
    let result: ToolResult;
    try {
      result = await this.#callTool(name, args, options);
    } catch (error) {
      if (!(error instanceof RpcError) || error.code !== ErrorCode.HeaderMismatch) throw error;
      await this.listTools({ ...options, cache: false });
      result = await this.#callTool(name, args, options);
    }
    const schema = options?.validateOutput !== false && this.#listed.find((tool) => tool.name === name)?.outputSchema;
    if (!schema) return result;
    // The tool has run: a validator that fails to load (a chunk download failing) must not lose its result.
    const validation = await outputValidation().catch((cause: unknown) => {
      const message = `tools/call: tool ${JSON.stringify(name)}: the output validator did not load, the result is unchecked`;
      throw new OutputValidationError(name, '', message, { issues: [] }, { cause, result });
    });
    return validation.checkOutput(name, schema, result, this.#options);
  }

  /** One `tools/call`, or the tasks module's part in it: its result as the caller gets it. */
  async #callTool(name: string, args: Record<string, unknown>, options?: CallToolOptions): Promise<ToolResult> {
    const meta = options?.meta;
    let call: ToolCall = { name, arguments: args };
    if (meta) {
      // The progress token is the client's (`onProgress`): one of the caller's could name another call's reports.
      const { progressToken: _progressToken, ...rest } = meta;
      call = { name, arguments: args, _meta: rest };
    }
    // A 2025-11-25 server that declared tasks: the tasks module starts one where the tool's taskSupport asks.
    if (this.#server?.capabilities.tasks) return (await this.tasks()).startToolCall(call, options);
    const result = await this.request<ToolResult | TaskAnswer>('tools/call', 'tools', call, parseCallTool, options);
    // No `content`: a 2026-07-28 task, which the era hands on unparsed, for the tasks module to follow.
    return result.content ? result : (await this.tasks()).followToolCall(result, options);
  }

  /** This session's tasks (`client.tasks`), the module loaded at first use. */
  async tasks(): Promise<TaskClient> {
    return new (await tasks()).TaskClient(this, this.#options, () => this.#answer(), this.#listed);
  }

  /** Checks the server answers, with the era's request for it (`Era.pingMethod`). */
  ping(options?: CallOptions): Promise<void> {
    return this.request(this.#era.pingMethod, undefined, undefined, () => undefined, options);
  }

  /** The level of log messages wanted, once the server declared `logging`: the era sets it (`Era.setLoggingLevel`). */
  async setLoggingLevel(level: LoggingLevel, options?: CallOptions): Promise<void> {
    const unmet = this.#unmetPrecondition('logging/setLevel', 'logging');
    if (unmet) throw unmet;
    await this.#era.setLoggingLevel(level, options);
  }

  /** One resource's updates, as the era subscribes to them (`Era.subscribe`). */
  subscribe(uri: string, options?: CallOptions): Promise<void> {
    return this.#era.subscribe(uri, options);
  }

  unsubscribe(uri: string, options?: CallOptions): Promise<void> {
    return this.#era.unsubscribe(uri, options);
  }

  /** Change notifications as a subscription, once the client is connected: the era opens it (`Era.listen`). */
  async listen(filter: ListenFilter): Promise<Subscription> {
    const { listeners } = await this.#answer();
    const unmet = this.#unmetPrecondition('subscriptions/listen');
    if (unmet) throw unmet;
    return this.#era.listen(filter, listeners);
  }

  /** Tells the server the roots changed, once the client is connected, as the era does (`Era.notifyRootsChanged`). */
  notifyRootsChanged(): Promise<void> {
    const unmet = this.#unmetPrecondition('notifications/roots/list_changed');
    if (unmet) return Promise.reject(unmet);
    return this.#era.notifyRootsChanged();
  }

  /** Ends every subscription, then the channel (pending calls, handlers, the transport). Idempotent. */
  async close(): Promise<void> {
    this.#answering?.listeners.closeAll();
    await this.#channel.close();
  }

  /** Why `method` must not be sent now, checked before anything goes on the wire. */
  #unmetPrecondition(method: string, capability?: CapabilityPath): Error | undefined {
    if (this.#channel.ended) return undefined; // the channel rejects with the reason it ended
    if (!this.#server) return new McpError(`${method}: call connect() first`);
    if (capability && !hasCapability(this.#server.capabilities, capability)) {
      return new CapabilityError(capability, method);
    }
    return undefined;
  }

  /** This session's part of the answering module, loaded the first time the server asks or the app listens. */
  async #answer(): Promise<Answering> {
    return this.#answeringOf(await answering());
  }

  #answeringOf({ Answering }: typeof AnsweringModule): Answering {
    this.#answering ??= new Answering(this.#channel, this.#options);
    return this.#answering;
  }

  /**
   * A server notification: drop what it makes stale and hand it to the
   * subscriptions that want it — at once, so a slow `onNotification` cannot make
   * them miss one — then to the app's handler, in a handler slot.
   */
  #onNotification(notification: JsonRpcNotification): void {
    const { method, params } = notification;
    this.#cache?.invalidate(method, params);
    this.#answering?.route(method, params);
    if (!this.#options.onNotification) return;
    // Until the module loads, each waits for it directly: they run in the order they came, before any later one.
    if (this.#answering) this.#answering.notify(notification);
    else {
      answering().then(
        (module) => this.#answeringOf(module).notify(notification),
        (error: unknown) => this.#channel.report(error),
      );
    }
  }

  /**
   * Sends through the era. A request that failed goes back to the era first,
   * which may still carry it out (`Era.recover`). When the server says the session expired (HTTP 404),
   * or the transport knows it is gone: one new handshake, shared by every call
   * that needs it, and one resend — none for a request sent before a renewal that
   * already happened. The wait and the resend are bound by the call's own signal,
   * timeout and hard cap, which the channel counts from the call's `startedAt`.
   */
  async #send<T>(
    method: string,
    params: Record<string, unknown> | undefined,
    options: EraRequestOptions<T>,
  ): Promise<T> {
    const generation = this.#generation;
    const send = () => this.#era.request(this.#channel, method, params, options);
    try {
      return await send();
    } catch (error) {
      const recovered = this.#era.recover(error, method, options, send);
      if (recovered) return recovered;
      if (!(error instanceof SessionExpiredError) || error.delivered) throw error;
      if (generation === this.#generation) {
        await this.#channel.run(method, options, () => this.#renewal(), `${method} (waiting for a new session)`);
      }
      return send();
    }
  }

  /**
   * The session renewal under way, or a new one. It is bound to no one call (a
   * caller that gives up leaves it to the others) but as a whole to
   * `requestTimeout`: a server that never answers part of the handshake cannot
   * hold every later call. One that fails fails the calls waiting for it and
   * leaves the session gone, so the next call starts another: never more than
   * one at a time, never a retry within a call.
   */
  #renewal(): Promise<void> {
    this.#renewing ??= this.#channel
      .run('the session renewal', { maxTotalTimeout: 0 }, (signal) => this.#renew(signal))
      .finally(() => {
        this.#renewing = undefined;
      });
    return this.#renewing;
  }

  /** A new handshake; one whose `signal` aborted (timed out) must not start its session late, over a newer one. */
  async #renew(signal: AbortSignal): Promise<void> {
    const server = await this.#era.connect(this.#context({ signal }));
    if (signal.aborted) throw signal.reason;
    this.#started(server);
    this.#generation++;
    this.#cache?.clear();
    await this.#era.renewed(signal);
  }

  #context(options: CallOptions): ConnectContext {
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
    this.#hooks.sessionStarted?.({
      protocolVersion: server.protocolVersion,
      era: this.#era.kind,
      serverMessages: this.#serverMessages,
      ...(sessionId !== undefined && { sessionId }),
    });
  }
}
