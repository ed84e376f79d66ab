import * as v from 'valibot';
import type { Client } from '../client/client.js';
import { RpcError } from '../errors/rpc-error.js';
import { toErrorObject } from '../errors/to-error-object.js';
import { isAppVisible } from '../protocol/apps.js';
import { APP_REQUEST_REFUSED, ErrorCode } from '../protocol/error-codes.js';
import { JSONRPC_VERSION, type JsonRpcMessage, JsonRpcMessageSchema, type RequestId } from '../protocol/jsonrpc.js';
import type { Tool } from '../protocol/tool-definition.js';
import type { CallToolResult, ToolResult } from '../protocol/tools.js';
import type { AppHostEvent, AppHostOptions, AppHostState } from './app-host-options.js';
import { type ResolvedAppLimits, resolveAppLimits } from './app-limits.js';
import { linkToOpen } from './app-link.js';
import type { AppPolicy } from './app-policy.js';
import { AppViewError, type AppViewErrorCode } from './app-view-error.js';
import { mayShowIn } from './display-mode.js';
import type { AppDisplayMode, AppHostContext } from './host-context.js';
import { createSandboxFrame, sandboxUrl } from './sandbox-frame.js';
import { jsonBytes, MessageRate } from './view-bounds.js';
import {
  ViewDisplayModeParamsSchema,
  ViewInitializeParamsSchema,
  ViewLogParamsSchema,
  ViewMessageParamsSchema,
  ViewModelContextParamsSchema,
  ViewOpenLinkParamsSchema,
  ViewReadResourceParamsSchema,
  ViewSizeParamsSchema,
  ViewToolCallParamsSchema,
} from './view-messages.js';
import { readViewResource, type ViewResource } from './view-resource.js';

/** The MCP Apps protocol version this host speaks (the stable `2026-01-26`). */
export const APPS_PROTOCOL_VERSION = '2026-01-26';

const refused = (message: string) => new RpcError(APP_REQUEST_REFUSED, message);

/** `ui/notifications/sandbox-error` from the proxy page (ours: the spec reserves `sandbox-*` for host and proxy). */
const SandboxErrorSchema = v.object({
  code: v.pipe(v.string(), v.regex(/^[a-z_]{1,40}$/)),
  message: v.pipe(v.string(), v.maxLength(500)),
});

type Params = Record<string, unknown>;

/** The least time between two `tools/list` reads a view's calls cause, in milliseconds. */
const RELIST_INTERVAL = 10_000;

/**
 * The host side of one MCP Apps view (`io.modelcontextprotocol/ui`, 2026-01-26):
 * reads the tool's `ui://` resource, mounts it through a sandbox proxy on another
 * origin, speaks the view's JSON-RPC over `postMessage`, and holds the view to
 * `policy` and `limits`. Framework-neutral: one instance per view.
 *
 * @example
 * ```ts
 * const host = new AppHost({
 *   client,
 *   toolCall: { name: 'show-counter', arguments: { start: 1 } },
 *   container: document.getElementById('view')!,
 *   sandbox: { url: 'https://sandbox.example.com/sandbox-proxy.html' },
 *   hostContext: { theme: 'dark', displayMode: 'inline', locale: 'en-US' },
 *   policy: { openLink: (url) => window.confirm(`Open ${url}?`) },
 * });
 * await host.mount();
 * host.sendToolResult(await client.callTool('show-counter', { start: 1 }));
 * ```
 */
export class AppHost {
  readonly #options: AppHostOptions;
  readonly #policy: AppPolicy;
  readonly #limits: ResolvedAppLimits;
  readonly #sandbox: URL;
  readonly #rate: MessageRate;
  #state: AppHostState = 'idle';
  #error: AppViewError | undefined;
  #context: AppHostContext;
  readonly #tools = new Map<string, Tool>();
  #listing: Promise<Tool[]> | undefined;
  #listedAt = Number.NEGATIVE_INFINITY;
  #resource: ViewResource | undefined;
  #frame: HTMLIFrameElement | undefined;
  #listening = false;
  #resourceSent = false;
  #answered = false;
  #initialized = false;
  #viewModes: string[] | undefined;
  /** Notifications for the view, held until it says `initialized` (the spec's rule: nothing before it). */
  #held: Array<{ method: string; params: Params }> = [];
  #inputSent = false;
  #finished = false;
  #inFlight = 0;
  readonly #calls = new Set<AbortController>();
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #waiting = new Map<RequestId, () => void>();
  #nextId = 1;
  #mounted: Promise<void> | undefined;
  #settleMount: ((error?: AppViewError) => void) | undefined;
  #closing: Promise<void> | undefined;

  /**
   * Checks the sandbox proxy's URL at once: an `AppViewError` (`invalid_sandbox`,
   * `same_origin`) if it cannot isolate the view. Nothing is read or mounted
   * until `mount()`.
   */
  constructor(options: AppHostOptions) {
    this.#options = options;
    this.#policy = options.policy ?? {};
    this.#limits = resolveAppLimits(options.limits);
    this.#sandbox = sandboxUrl(options.sandbox.url);
    this.#rate = new MessageRate(this.#limits.maxMessagesPerSecond);
    this.#context = { ...options.hostContext };
    if (options.tool) this.#tools.set(options.tool.name, options.tool);
    const { arguments: args, result } = options.toolCall;
    if (args !== undefined) this.sendToolInput(args);
    if (result !== undefined) this.sendToolResult(result);
  }

  /** Where the host is in its life. */
  get state(): AppHostState {
    return this.#state;
  }

  /** The error that ended the view, once `state` is `failed`. */
  get error(): AppViewError | undefined {
    return this.#error;
  }

  /** The host context as the view last heard it (or will, once initialized). */
  get hostContext(): AppHostContext {
    return { ...this.#context };
  }

  /**
   * Reads the tool's view, mounts the sandbox proxy in `container`, sends it the
   * view and resolves once the view is initialized. Rejects with an
   * `AppViewError` (the view is gone by then): an unusable resource, a view that
   * did not initialize within `limits.initializeTimeoutMs`, a broken bound, or
   * `teardown()` first. Calling it again returns the same promise.
   */
  mount(): Promise<void> {
    this.#mounted ??= new Promise<void>((resolve, reject) => {
      this.#settleMount = (error) => (error ? reject(error) : resolve());
      if (this.#state !== 'idle') {
        this.#settleMount(this.#error ?? new AppViewError('torn_down', 'the view was torn down before it was mounted'));
        return;
      }
      this.#setState('loading');
      this.#load().catch((error: unknown) =>
        this.#fail(
          error instanceof AppViewError
            ? error
            : new AppViewError('load_failed', 'mounting the view failed', { cause: error }),
        ),
      );
    });
    return this.#mounted;
  }

  /**
   * Sends streamed, incomplete tool arguments (`ui/notifications/tool-input-partial`).
   * Ignored once the complete input went out.
   */
  sendToolInputPartial(args: Record<string, unknown>): void {
    if (this.#inputSent || this.#done) return;
    this.#notify('ui/notifications/tool-input-partial', { arguments: args });
  }

  /** Sends the complete tool arguments (`ui/notifications/tool-input`): once, whatever calls it again. */
  sendToolInput(args: Record<string, unknown>): void {
    if (this.#inputSent || this.#done) return;
    this.#inputSent = true;
    this.#notify('ui/notifications/tool-input', { arguments: args });
  }

  /**
   * Sends the tool's result (`ui/notifications/tool-result`). The input goes
   * first if it has not (the call's own arguments): the view sees tool-input
   * exactly once, before the result. Only the first result or cancellation counts.
   */
  sendToolResult(result: CallToolResult | ToolResult): void {
    if (this.#finished || this.#done) return;
    this.sendToolInput(this.#options.toolCall.arguments ?? {});
    this.#finished = true;
    const { text: _text, ...wire } = result as ToolResult;
    this.#notify('ui/notifications/tool-result', { ...wire, content: [...result.content] });
  }

  /** Tells the view the tool call was cancelled (`ui/notifications/tool-cancelled`), after the input, once. */
  sendToolCancelled(reason?: string): void {
    if (this.#finished || this.#done) return;
    this.sendToolInput(this.#options.toolCall.arguments ?? {});
    this.#finished = true;
    this.#notify('ui/notifications/tool-cancelled', reason === undefined ? {} : { reason });
  }

  /**
   * Merges `context` into the host context and tells the view what changed
   * (`ui/notifications/host-context-changed`); before the view has asked, its
   * `ui/initialize` answer carries it instead.
   */
  setHostContext(context: AppHostContext): void {
    if (this.#done) return;
    this.#context = { ...this.#context, ...context };
    if (this.#answered) this.#notify('ui/notifications/host-context-changed', { ...context });
  }

  /**
   * Sends `ui/resource-teardown`, waits for the view's answer (at most
   * `limits.teardownTimeoutMs`), then removes the iframe and every listener and
   * timer. A view not yet initialized is removed at once. Idempotent; never rejects.
   */
  teardown(reason = 'closed by the host'): Promise<void> {
    if (this.#closing) return this.#closing;
    if (this.#done) return Promise.resolve();
    if (!this.#initialized) {
      this.#close(new AppViewError('torn_down', 'the view was torn down before it was ready'));
      return Promise.resolve();
    }
    this.#closing = new Promise<void>((resolve) => {
      const finish = () => {
        this.#close();
        resolve();
      };
      this.#request('ui/resource-teardown', { reason }, finish);
      this.#later(this.#limits.teardownTimeoutMs, finish);
    });
    return this.#closing;
  }

  get #done(): boolean {
    return this.#state === 'closed' || this.#state === 'failed';
  }

  get #client(): Client {
    const { client, connection } = this.#options;
    return client ?? (connection as NonNullable<typeof connection>).client;
  }

  async #load(): Promise<void> {
    const tool = await this.#tool(this.#options.toolCall.name);
    if (tool === undefined) {
      throw new AppViewError('no_ui_resource', `the server lists no tool ${this.#options.toolCall.name}`);
    }
    this.#context.toolInfo ??= {
      tool,
      ...(this.#options.toolCall.id !== undefined && { id: this.#options.toolCall.id }),
    };
    const resource = await readViewResource(this.#client, tool, this.#policy.permissions);
    if (this.#done) return;
    this.#resource = resource;
    this.#later(this.#limits.initializeTimeoutMs, () => {
      if (!this.#initialized) {
        this.#fail(
          new AppViewError(
            'initialize_timeout',
            `the view of ${tool.name} did not initialize within ${this.#limits.initializeTimeoutMs} ms`,
          ),
        );
      }
    });
    const frame = createSandboxFrame(this.#sandbox, resource, tool.title ?? tool.name);
    this.#frame = frame;
    globalThis.addEventListener('message', this.#onMessage);
    this.#listening = true;
    this.#options.container.append(frame);
    this.#applyFixedSize();
  }

  /**
   * A tool of the view's server by name. The list is read once, and again for
   * a name it lacks at most every {@link RELIST_INTERVAL} ms, one read at a
   * time: a view asking for made-up names must not turn into a `tools/list`
   * per message at its server.
   */
  async #tool(name: string): Promise<Tool | undefined> {
    const now = Date.now();
    if (!this.#tools.has(name) && (this.#listing !== undefined || now - this.#listedAt >= RELIST_INTERVAL)) {
      this.#listedAt = now;
      this.#listing ??= this.#client.listTools().finally(() => {
        this.#listing = undefined;
      });
      for (const tool of await this.#listing) this.#tools.set(tool.name, tool);
    }
    return this.#tools.get(name);
  }

  /** Every message from the page's frames arrives here; only the sandbox proxy's count. */
  readonly #onMessage = (event: MessageEvent): void => {
    const frame = this.#frame;
    if (frame === undefined || event.source !== frame.contentWindow || event.origin !== this.#sandbox.origin) return;
    if (!this.#rate.take()) {
      this.#fail(
        new AppViewError(
          'rate_limited',
          `the view sent more than ${this.#limits.maxMessagesPerSecond} messages a second`,
        ),
      );
      return;
    }
    const bytes = jsonBytes(event.data, this.#limits.maxMessageBytes);
    if (bytes === undefined || bytes > this.#limits.maxMessageBytes) {
      this.#fail(
        bytes === undefined
          ? new AppViewError('invalid_message', 'the view sent a message that is not JSON, or nests too deep')
          : new AppViewError('message_too_large', `the view sent a message over ${this.#limits.maxMessageBytes} bytes`),
      );
      return;
    }
    const parsed = v.safeParse(JsonRpcMessageSchema, event.data);
    if (!parsed.success) {
      this.#fail(
        new AppViewError('invalid_message', `the view sent an invalid JSON-RPC message: ${v.summarize(parsed.issues)}`),
      );
      return;
    }
    this.#dispatch(parsed.output);
  };

  #dispatch(message: JsonRpcMessage): void {
    const { id, method, params = {} } = message as { id?: RequestId; method?: string; params?: Params };
    if (method === undefined) {
      if (id !== undefined) this.#waiting.get(id)?.();
    } else if (id !== undefined) this.#answer(id, method, params);
    else this.#onNotification(method, params);
  }

  #answer(id: RequestId, method: string, params: Params): void {
    if (this.#inFlight >= this.#limits.maxRequestsInFlight) {
      this.#fail(
        new AppViewError(
          'too_many_requests',
          `the view had more than ${this.#limits.maxRequestsInFlight} requests in flight`,
        ),
      );
      return;
    }
    this.#inFlight++;
    const call = new AbortController();
    this.#calls.add(call);
    this.#handle(method, params, call.signal)
      .then(
        (result) => this.#post({ jsonrpc: JSONRPC_VERSION, id, result }),
        (error: unknown) => this.#post({ jsonrpc: JSONRPC_VERSION, id, error: toErrorObject(error) }),
      )
      .finally(() => {
        this.#inFlight--;
        this.#calls.delete(call);
      });
  }

  async #handle(method: string, params: Params, signal: AbortSignal): Promise<Params> {
    if (method === 'ping') return {};
    if (method === 'ui/initialize') return this.#initialize(params);
    if (!this.#answered) throw new RpcError(ErrorCode.InvalidRequest, 'Invalid request: ui/initialize first');
    switch (method) {
      case 'tools/call':
        return this.#callTool(valid(ViewToolCallParamsSchema, params), signal);
      case 'resources/read': {
        const { uri } = valid(ViewReadResourceParamsSchema, params);
        if (!(await consent(this.#policy.confirmResourceRead, uri, true))) throw refused('Resource read denied');
        return this.#client.request('resources/read', { uri }, { signal });
      }
      case 'ui/message': {
        const message = valid(ViewMessageParamsSchema, params);
        const onMessage = this.#policy.onMessage;
        if (!onMessage) throw refused('Message sending denied: this host takes no messages from views');
        await refusing(() => onMessage({ role: message.role, content: message.content }), 'Message sending denied');
        return {};
      }
      case 'ui/open-link': {
        const url = linkToOpen(valid(ViewOpenLinkParamsSchema, params).url);
        if (url === undefined) throw refused('Invalid URL: only https links are opened');
        if (!(await consent(this.#policy.openLink, url, false))) throw refused('Link opening denied');
        return {};
      }
      case 'ui/request-display-mode':
        return { mode: await this.#displayMode(valid(ViewDisplayModeParamsSchema, params).mode) };
      case 'ui/update-model-context': {
        const context = valid(ViewModelContextParamsSchema, params);
        const update = this.#policy.updateModelContext;
        if (!update) throw refused('Context update denied: this host keeps no model context');
        const { content, structuredContent } = context;
        await refusing(
          () => update({ ...(content && { content }), ...(structuredContent && { structuredContent }) }),
          'Context update denied',
        );
        return {};
      }
      default:
        throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method.slice(0, 100)}`);
    }
  }

  #initialize(params: Params): Params {
    if (this.#answered) throw new RpcError(ErrorCode.InvalidRequest, 'Invalid request: already initialized');
    const { appCapabilities } = valid(ViewInitializeParamsSchema, params);
    this.#viewModes = appCapabilities?.availableDisplayModes;
    this.#answered = true;
    const policy = this.#policy;
    const blocks = { text: {}, image: {}, audio: {}, resource: {}, resourceLink: {} };
    const resource = this.#resource;
    return {
      protocolVersion: APPS_PROTOCOL_VERSION,
      hostInfo: this.#options.hostInfo ?? { name: '@mcp/core', version: '0' },
      hostCapabilities: {
        serverTools: {},
        serverResources: {},
        logging: {},
        ...(policy.openLink && { openLinks: {} }),
        ...(policy.onMessage && { message: blocks }),
        ...(policy.updateModelContext && { updateModelContext: { ...blocks, structuredContent: {} } }),
        sandbox: {
          ...(resource?.permissions && { permissions: resource.permissions }),
          ...(resource?.csp && { csp: resource.csp }),
        },
      },
      hostContext: { ...this.#context },
    };
  }

  async #callTool(
    { name, arguments: args = {} }: { name: string; arguments?: Params | undefined },
    signal: AbortSignal,
  ) {
    // Only the view's own server is reachable: its client is the only one this host holds.
    const tool = await this.#tool(name).catch(() => undefined);
    if (tool === undefined || !isAppVisible(tool)) {
      throw refused(`Tool ${name.slice(0, 100)} is not available to apps`);
    }
    if (!(await consent(this.#policy.confirmToolCall, { name, arguments: args, tool }, true))) {
      throw refused('Tool call denied');
    }
    const { text: _text, ...result } = await this.#client.callTool(name, args, { signal });
    return { ...result, content: [...result.content] };
  }

  async #displayMode(mode: AppDisplayMode): Promise<AppDisplayMode> {
    const current = this.#context.displayMode ?? 'inline';
    const hook = this.#policy.requestDisplayMode;
    if (mode === current || !hook || !mayShowIn(mode, this.#context.availableDisplayModes, this.#viewModes)) {
      return current;
    }
    const chosen = await hook(mode);
    if (this.#done || chosen === current) return current;
    if (chosen !== mode && !mayShowIn(chosen, this.#context.availableDisplayModes, this.#viewModes)) return current;
    this.setHostContext({ displayMode: chosen });
    return chosen;
  }

  #onNotification(method: string, params: Params): void {
    switch (method) {
      case 'ui/notifications/sandbox-proxy-ready':
        if (!this.#resourceSent && this.#resource) {
          this.#resourceSent = true;
          const { uri: _uri, ...resource } = this.#resource;
          // maxMessageBytes (ours): the proxy holds the view to the same bound before anything reaches this page.
          const params = { ...resource, maxMessageBytes: this.#limits.maxMessageBytes };
          this.#post({ jsonrpc: JSONRPC_VERSION, method: 'ui/notifications/sandbox-resource-ready', params });
        }
        return;
      case 'ui/notifications/initialized':
        if (this.#answered && !this.#initialized) {
          this.#initialized = true;
          for (const { method: held, params: heldParams } of this.#held.splice(0)) {
            this.#post({ jsonrpc: JSONRPC_VERSION, method: held, params: heldParams });
          }
          this.#setState('ready');
          this.#settleMount?.();
          this.#settleMount = undefined;
        }
        return;
      case 'ui/notifications/size-changed': {
        const size = v.safeParse(ViewSizeParamsSchema, params);
        if (size.success) this.#resize(size.output.width, size.output.height);
        return;
      }
      case 'ui/notifications/sandbox-error': {
        // The proxy refused the view or took it down; its code names the bound or rule.
        const report = v.safeParse(SandboxErrorSchema, params);
        const { code, message } = report.success
          ? report.output
          : { code: 'invalid_message', message: 'the sandbox failed' };
        this.#fail(new AppViewError(code as AppViewErrorCode, `sandbox: ${message}`));
        return;
      }
      case 'ui/notifications/request-teardown':
        this.#emit({ type: 'teardown-requested' });
        return;
      case 'notifications/message': {
        const entry = v.safeParse(ViewLogParamsSchema, params);
        if (entry.success) {
          const { level, logger, data } = entry.output;
          try {
            this.#policy.onLog?.({ level, data, ...(logger !== undefined && { logger }) });
          } catch {
            // A logging hook's failure is the app's, not the view's: the view goes on.
          }
        }
        return;
      }
      default:
        return;
    }
  }

  /** Follows the view's size within the container's fixed and maximum dimensions and `limits`. */
  #resize(width: number | undefined, height: number | undefined): void {
    const frame = this.#frame;
    if (!frame) return;
    const room = this.#context.containerDimensions ?? {};
    const fit = (value: number | undefined, fixed: number | undefined, max: number | undefined, limit: number) =>
      value === undefined || fixed !== undefined ? undefined : Math.min(Math.ceil(value), max ?? limit, limit);
    const w = fit(width, room.width, room.maxWidth, this.#limits.maxWidth);
    const h = fit(height, room.height, room.maxHeight, this.#limits.maxHeight);
    if (w !== undefined) frame.style.width = `${w}px`;
    if (h !== undefined) frame.style.height = `${h}px`;
    if (w !== undefined || h !== undefined) this.#emit({ type: 'size', width: w, height: h });
  }

  #applyFixedSize(): void {
    const room = this.#context.containerDimensions ?? {};
    if (this.#frame && room.width !== undefined) this.#frame.style.width = `${room.width}px`;
    if (this.#frame && room.height !== undefined) this.#frame.style.height = `${room.height}px`;
  }

  #notify(method: string, params: Params): void {
    if (this.#initialized) this.#post({ jsonrpc: JSONRPC_VERSION, method, params });
    else this.#held.push({ method, params });
  }

  #request(method: string, params: Params, onAnswer: () => void): void {
    const id = `host-${this.#nextId++}`;
    this.#waiting.set(id, () => {
      this.#waiting.delete(id);
      onAnswer();
    });
    this.#post({ jsonrpc: JSONRPC_VERSION, id, method, params });
  }

  /** Posts to the sandbox proxy, addressed to its origin only. */
  #post(message: Record<string, unknown>): void {
    if (this.#done) return;
    try {
      this.#frame?.contentWindow?.postMessage(message, this.#sandbox.origin);
    } catch (error) {
      // Something the app passed (a tool result, a context field) that cannot be cloned: the view cannot go on.
      this.#fail(new AppViewError('load_failed', 'a message for the view could not be posted', { cause: error }));
    }
  }

  #later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      run();
    }, ms);
    this.#timers.add(timer);
  }

  /** Ends the view on a broken bound or a failed load: removed at once, no teardown wait (it gets no more time). */
  #fail(error: AppViewError): void {
    if (this.#done) return;
    this.#close(error);
  }

  #close(error?: AppViewError): void {
    if (this.#done) return;
    if (this.#listening) globalThis.removeEventListener('message', this.#onMessage);
    this.#listening = false;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const call of this.#calls) call.abort(error ?? new AppViewError('torn_down', 'the view was torn down'));
    this.#calls.clear();
    this.#waiting.clear();
    this.#held = [];
    this.#frame?.remove();
    this.#frame = undefined;
    const failed = error !== undefined && error.code !== 'torn_down';
    this.#error = failed ? error : undefined;
    this.#setState(failed ? 'failed' : 'closed');
    if (failed) this.#emit({ type: 'error', error });
    this.#settleMount?.(error ?? new AppViewError('torn_down', 'the view was torn down before it was ready'));
    this.#settleMount = undefined;
  }

  #setState(state: AppHostState): void {
    this.#state = state;
    this.#emit({ type: 'state', state });
  }

  #emit(event: AppHostEvent): void {
    try {
      this.#options.onEvent?.(event);
    } catch {
      // The app's listener failing must not leave the view half torn down.
    }
  }
}

/** Params checked against `schema`, or the JSON-RPC invalid-params error the view gets. */
function valid<S extends v.GenericSchema>(schema: S, params: Params): v.InferOutput<S> {
  const parsed = v.safeParse(schema, params);
  if (!parsed.success) throw new RpcError(ErrorCode.InvalidParams, `Invalid params: ${v.summarize(parsed.issues)}`);
  return parsed.output;
}

/** Runs an app hook; its failure becomes the refusal the view sees, never the app's error text. */
async function refusing(run: () => void | Promise<void>, message: string): Promise<void> {
  try {
    await run();
  } catch {
    throw refused(message);
  }
}

/** The app's answer to a consent hook; `fallback` when there is none. A hook that throws refuses. */
async function consent<T>(hook: ((value: T) => boolean | Promise<boolean>) | undefined, value: T, fallback: boolean) {
  if (!hook) return fallback;
  try {
    return (await hook(value)) === true;
  } catch {
    return false;
  }
}
