import * as v from 'valibot';
import { McpError } from '../../errors/mcp-error.js';
import { ProtocolError } from '../../errors/protocol-error.js';
import { RpcError } from '../../errors/rpc-error.js';
import { UnsupportedVersionError } from '../../errors/unsupported-version-error.js';
import type { ClientCapabilities } from '../../protocol/capabilities.js';
import { DiscoverResultSchema } from '../../protocol/discover.js';
import { ErrorCode, supportedVersionsIn } from '../../protocol/error-codes.js';
import type { Implementation } from '../../protocol/implementation.js';
import type { JsonRpcRequest } from '../../protocol/jsonrpc.js';
import type { LoggingLevel } from '../../protocol/logging.js';
import {
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_LOG_LEVEL,
  META_PROTOCOL_VERSION,
  META_SERVER_INFO,
  withMeta,
} from '../../protocol/meta.js';
import { resultTypeOf } from '../../protocol/result.js';
import type { Tool } from '../../protocol/tools.js';
import { MODERN_PROTOCOL_VERSIONS } from '../../protocol/versions.js';
import { excerpt } from '../../util/excerpt.js';
import { lazy } from '../../util/lazy.js';
import type { Step } from '../answering/input-requests.js';
import { clientCapabilities, modernCapabilities } from '../capabilities.js';
import type { Listeners } from '../listen/listeners.js';
import type { ListenFilter, Subscription } from '../listen/subscription.js';
import { DEFAULT_CLIENT_INFO, DEFAULT_MAX_SCHEMA_NODES } from '../options.js';
import { parseAny, resultParser } from '../results/decode.js';
import type { RequestOptions, RpcChannel } from '../rpc/rpc-channel.js';
import type { ConnectContext, Era, EraRequestOptions, ServerIdentity } from './era.js';
import type { EraHost } from './era-host.js';
import { encodeHeaderValue } from './header-values.js';
import { ToolRegistry } from './tool-registry.js';

/** The `x-mcp-header` rules, loaded with the first listing that has an annotation. */
const headerRules = lazy(() => import('../x-mcp-header/index.js'));

/**
 * Methods whose `Mcp-Name` header carries a param (2026-07-28 Streamable HTTP):
 * the same three whose result may be `input_required` (§MRTR), so it answers
 * that too.
 */
const NAME_PARAM: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/**
 * The stateless era (2026-07-28): no handshake and no session. `server/discover`
 * learns the server; every request carries the protocol version, the client's
 * capabilities and identity in `_meta` (and, on HTTP, `MCP-Protocol-Version`,
 * `Mcp-Method`, `Mcp-Name`). Servers ask for input by answering
 * `input_required`; the MRTR driver answers with the same handlers the legacy
 * era uses and retries with a new id.
 */
export class ModernEra implements Era {
  readonly kind = 'modern' as const;
  /** 2026-07-28 has no `ping`: a `server/discover` checks the server answers. */
  readonly pingMethod = 'server/discover';
  readonly #host: EraHost;
  readonly #clientInfo: Implementation;
  readonly #capabilities: ClientCapabilities;
  /** The `x-mcp-header` parameters of the listed tools, for each call's `Mcp-Param-*` headers. */
  readonly #tools = new ToolRegistry(headerRules);
  #version: string = MODERN_PROTOCOL_VERSIONS[0];
  /** The log level stamped on every request (`setLoggingLevel`). */
  #logLevel: LoggingLevel | undefined;

  constructor(host: EraHost) {
    this.#host = host;
    this.#clientInfo = host.options.clientInfo ?? DEFAULT_CLIENT_INFO;
    this.#capabilities = modernCapabilities(clientCapabilities(host.options));
  }

  async connect(context: ConnectContext): Promise<ServerIdentity> {
    const pinned = context.protocolVersion;
    if (pinned) this.#version = pinned;
    const parse = resultParser('server/discover', DiscoverResultSchema);
    // A discover that goes unanswered may be a legacy server before its handshake:
    // it gets no cancellation, and a late answer is dropped.
    const call = { ...context.call, parse, cancellable: false };
    let result: v.InferOutput<typeof DiscoverResultSchema>;
    try {
      result = await this.request(context.channel, 'server/discover', undefined, call);
    } catch (error) {
      // -32022 lists what the server speaks: if we share a modern version, ask
      // again with it, once (2026-07-28 §Versioning). A pinned version is only
      // retried when the server lists it.
      const retry = sharedModernVersion(error, pinned);
      if (!retry) throw error;
      this.#version = retry;
      result = await this.request(context.channel, 'server/discover', undefined, call);
    }
    if (!result.supportedVersions.includes(this.#version)) {
      const shared = MODERN_PROTOCOL_VERSIONS.find((version) => result.supportedVersions.includes(version));
      if (!shared || pinned) throw new UnsupportedVersionError(this.#version, result.supportedVersions);
      this.#version = shared;
    }
    const serverInfo = v.safeParse(
      v.looseObject({ name: v.string(), version: v.string() }),
      result._meta?.[META_SERVER_INFO],
    );
    return {
      protocolVersion: this.#version,
      serverInfo: serverInfo.success ? serverInfo.output : { name: 'unknown', version: 'unknown' },
      capabilities: result.capabilities,
      ...(result.instructions !== undefined && { instructions: result.instructions }),
    };
  }

  async request<T>(
    channel: RpcChannel,
    method: string,
    params: Record<string, unknown> | undefined,
    options: EraRequestOptions<T>,
  ): Promise<T> {
    const parse = (raw: unknown): Step<T> => stepOf(method, raw, options.parse);
    const sendOptions = { ...options, parse };
    const step = await this.#send(channel, method, params ?? {}, sendOptions);
    if (step.done) return step.value;
    const send = (body: Record<string, unknown>, retry: RequestOptions<Step<T>>) =>
      this.#send(channel, method, body, retry);
    // The first `input_required` loads the answering module, which drives the rounds.
    return (await this.#host.answering()).answerRounds(step.raw, { method, params, options: sendOptions, send });
  }

  /** Nothing to recover: 2026-07-28 reserves -32042, so no error starts URL flows, and input rounds are part of `request`. */
  recover(): undefined {
    return undefined;
  }

  /** The tools whose `x-mcp-header` annotations keep the rules; `limits.maxSchemaNodes` bounds each schema's walk. */
  acceptTools(tools: Tool[]): Promise<Tool[]> {
    const maxNodes = this.#host.options.limits?.maxSchemaNodes ?? DEFAULT_MAX_SCHEMA_NODES;
    return this.#tools.accept(tools, maxNodes, (message) => this.#host.options.onWarning?.(message));
  }

  /** 2026-07-28 has no `logging/setLevel`: every later request carries the level in `_meta`. */
  setLoggingLevel(level: LoggingLevel): Promise<void> {
    this.#logLevel = level;
    return Promise.resolve();
  }

  /** A `subscriptions/listen` stream, reopened when it drops. */
  async listen(filter: ListenFilter, listeners: Listeners): Promise<Subscription> {
    return listeners.openModern(filter, (notifications, signal, onRequestId) =>
      this.request(
        this.#host.channel,
        'subscriptions/listen',
        { notifications },
        // The stream lives as long as the subscription: no timeout, no cap.
        { parse: parseAny, signal, timeout: 0, maxTotalTimeout: 0, onRequestId },
      ),
    );
  }

  /** 2026-07-28 has no `roots/list_changed`: the roots travel with each request's input answers. */
  notifyRootsChanged(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * A 2026-07-28 server must send no requests and the client must write no
   * response (basic § JSON-RPC, stdio): one that comes anyway is reported and
   * dropped.
   */
  serverRequest({ method }: JsonRpcRequest): Promise<undefined> {
    // The method is the server's, of any length: cut short in the message, whole in data.
    const message = `mcp: dropped ${excerpt(method, 80)}: a 2026-07-28 server sends no requests`;
    this.#host.channel.report(new ProtocolError(message, { received: { method } }));
    return Promise.resolve(undefined);
  }

  subscribe(): Promise<void> {
    return Promise.reject(noSubscriptions('resources/subscribe'));
  }

  unsubscribe(): Promise<void> {
    return Promise.reject(noSubscriptions('resources/unsubscribe'));
  }

  /** A stateless era keeps nothing of a session to restore. */
  renewed(): Promise<void> {
    return Promise.resolve();
  }

  async #send<T>(
    channel: RpcChannel,
    method: string,
    params: Record<string, unknown>,
    options: RequestOptions<T>,
  ): Promise<T> {
    try {
      return await channel.request(method, this.#envelope(params, options.logLevel), {
        ...options,
        headers: this.#headers(method, params, options.headers),
        cancellable: options.cancellable !== false && !this.#host.cancelsByClosing,
      });
    } catch (error) {
      if (error instanceof RpcError && error.code === ErrorCode.UnsupportedProtocolVersion) {
        throw new UnsupportedVersionError(
          this.#version,
          supportedVersionsIn(error.data) ?? [],
          `${method}: ${error.rpcMessage}`,
          { cause: error },
        );
      }
      throw error;
    }
  }

  /** Every request carries who we are and what we can do (2026-07-28 §Lifecycle). */
  #envelope(params: Record<string, unknown>, callLevel: LoggingLevel | undefined): Record<string, unknown> {
    const level = callLevel ?? this.#logLevel;
    return withMeta(params, {
      [META_PROTOCOL_VERSION]: this.#version,
      [META_CLIENT_CAPABILITIES]: this.#capabilities,
      [META_CLIENT_INFO]: this.#clientInfo,
      ...(level && { [META_LOG_LEVEL]: level }),
    });
  }

  /** The request's headers: the caller's (`extra`), then ours over them. One object per request, built in place. */
  #headers(
    method: string,
    params: Record<string, unknown>,
    extra: Readonly<Record<string, string>> | undefined,
  ): Record<string, string> {
    const nameKey = NAME_PARAM[method];
    const name = nameKey ? params[nameKey] : undefined;
    const headers: Record<string, string> = { ...extra, 'mcp-protocol-version': this.#version, 'mcp-method': method };
    if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name);
    if (method === 'tools/call' && typeof params.name === 'string') {
      Object.assign(headers, this.#tools.headers(params.name, (params.arguments ?? {}) as Record<string, unknown>));
    }
    return headers;
  }
}

/** Reads a result as a `Step`: an `input_required` only where the method may take one. */
function stepOf<T>(method: string, raw: unknown, parse: (raw: unknown) => T): Step<T> {
  // A JSON object: the channel parses only a response's `result`.
  const type = resultTypeOf(raw as { resultType?: string });
  if (type === 'complete') return { done: true, value: parse(raw) };
  // `input_required` only where MRTR applies; `task` (the Tasks extension every request declares) only on
  // tools/call, handed on raw: the tasks module reads it and follows it (Session.callTool). Any other is
  // unknown to this method.
  const task = type === 'task';
  if (task ? method !== 'tools/call' : type !== 'input_required' || !(method in NAME_PARAM)) {
    throw new ProtocolError(`${method}: unknown resultType ${JSON.stringify(type)}`);
  }
  return task ? { done: true, value: raw as T } : { done: false, raw };
}

/** 2026-07-28 has no resource subscriptions: `listen()` streams the updates instead. */
function noSubscriptions(method: string): McpError {
  return new McpError(`${method}: 2026-07-28 has no ${method}; use client.listen({ resources: [uri] })`);
}

function sharedModernVersion(error: unknown, pinned: string | undefined): string | undefined {
  if (!(error instanceof UnsupportedVersionError)) return undefined;
  const candidates = pinned ? [pinned] : MODERN_PROTOCOL_VERSIONS;
  return candidates.find((version) => error.supported.includes(version));
}
