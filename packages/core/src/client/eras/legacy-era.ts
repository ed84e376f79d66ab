import type * as v from 'valibot';
import { RpcError } from '../../errors/rpc-error.js';
import { UnsupportedVersionError } from '../../errors/unsupported-version-error.js';
import { ErrorCode, supportedVersionsIn } from '../../protocol/error-codes.js';
import { InitializeResultSchema } from '../../protocol/initialize.js';
import type { JsonRpcRequest } from '../../protocol/jsonrpc.js';
import type { LoggingLevel } from '../../protocol/logging.js';
import type { Tool } from '../../protocol/tools.js';
import { LATEST_LEGACY_PROTOCOL_VERSION, LEGACY_PROTOCOL_VERSIONS } from '../../protocol/versions.js';
import type { Listeners } from '../listen/listeners.js';
import type { ListenFilter, Subscription } from '../listen/subscription.js';
import type { CallOptions } from '../options.js';
import { parseEmpty, resultParser } from '../results/decode.js';
import type { RpcChannel } from '../rpc/rpc-channel.js';
import type { ConnectContext, Era, EraRequestOptions, ServerIdentity } from './era.js';
import type { EraHost } from './era-host.js';

const parseInitialize = resultParser('initialize', InitializeResultSchema);

/**
 * The handshake era (2024-11-05 … 2025-11-25): `initialize` with the newest
 * version we speak, accept any version we support in the answer, then
 * `notifications/initialized` (lifecycle, every legacy revision).
 */
export class LegacyEra implements Era {
  readonly kind = 'legacy' as const;
  readonly pingMethod = 'ping';
  readonly #host: EraHost;
  /** Resources subscribed to, so a renewed session can subscribe again. */
  readonly #subscriptions = new Set<string>();

  constructor(host: EraHost) {
    this.#host = host;
  }

  async connect(context: ConnectContext): Promise<ServerIdentity> {
    const pinned = context.protocolVersion;
    const acceptable: readonly string[] = pinned ? [pinned] : LEGACY_PROTOCOL_VERSIONS;
    let result: v.InferOutput<typeof InitializeResultSchema>;
    try {
      result = await initialize(context, pinned ?? LATEST_LEGACY_PROTOCOL_VERSION);
    } catch (error) {
      // Some servers refuse a version with -32602 and list what they support; if
      // we share one, ask again with it (checklist §1.1); if not, say so.
      const supported = pinned ? undefined : supportedVersions(error);
      if (!supported) throw error;
      const retry = acceptable.find((version) => supported.includes(version));
      if (!retry) {
        throw new UnsupportedVersionError(
          LATEST_LEGACY_PROTOCOL_VERSION,
          supported,
          `initialize: the server supports ${supported.join(', ')}, none of which this client speaks (it speaks ${acceptable.join(', ')})`,
          { cause: error },
        );
      }
      result = await initialize(context, retry);
    }
    if (!acceptable.includes(result.protocolVersion)) {
      throw new UnsupportedVersionError(
        result.protocolVersion,
        acceptable,
        `initialize: the server answered protocol version ${JSON.stringify(result.protocolVersion)}, which this client does not speak (it speaks ${acceptable.join(', ')})`,
      );
    }
    // The first request after initialize already carries the version (2025-06-18 on).
    const version = result.protocolVersion;
    const headers = version >= '2025-06-18' ? { 'mcp-protocol-version': version } : undefined;
    // Bounded like the handshake's request: a server that never acknowledges it fails connect().
    await context.channel.notify('notifications/initialized', undefined, {
      ...(headers && { headers }),
      ...(context.call.signal && { signal: context.call.signal }),
      ...(context.call.timeout !== undefined && { timeout: context.call.timeout }),
    });
    return {
      protocolVersion: result.protocolVersion,
      serverInfo: result.serverInfo,
      capabilities: result.capabilities,
      ...(result.instructions !== undefined && { instructions: result.instructions }),
    };
  }

  request<T>(
    channel: RpcChannel,
    method: string,
    params: Record<string, unknown> | undefined,
    options: EraRequestOptions<T>,
  ): Promise<T> {
    return channel.request(method, params, options);
  }

  /**
   * A refusal until the user completes URL flows (-32042, 2025-11-25) goes to
   * the answering module, which runs them and sends once more
   * (`answering/url-elicitations.ts`).
   */
  recover<T>(
    error: unknown,
    method: string,
    options: EraRequestOptions<T>,
    send: () => Promise<T>,
  ): Promise<T> | undefined {
    if (!(error instanceof RpcError) || error.code !== ErrorCode.UrlElicitationRequired) return undefined;
    return this.#host.answering().then((answering) => answering.afterUrlElicitations(error, method, options, send));
  }

  /** Every tool: a legacy request does not depend on the tool's schema. */
  acceptTools(tools: Tool[]): Promise<Tool[]> {
    return Promise.resolve(tools);
  }

  /** `logging/setLevel`. */
  async setLoggingLevel(level: LoggingLevel, options: CallOptions | undefined): Promise<void> {
    await this.#host.request('logging/setLevel', 'logging', { level }, parseEmpty, options);
  }

  /** `resources/subscribe`, remembered so a renewed session subscribes again. */
  async subscribe(uri: string, options: CallOptions | undefined): Promise<void> {
    await this.#host.request('resources/subscribe', 'resources.subscribe', { uri }, parseEmpty, options);
    this.#subscriptions.add(uri);
  }

  async unsubscribe(uri: string, options: CallOptions | undefined): Promise<void> {
    await this.#host.request('resources/unsubscribe', 'resources.subscribe', { uri }, parseEmpty, options);
    this.#subscriptions.delete(uri);
  }

  /** The session's own notifications, with `resources/subscribe` for each resource; on HTTP the GET stream opens for them. */
  listen(filter: ListenFilter, listeners: Listeners): Promise<Subscription> {
    this.#host.openServerStream();
    return listeners.openLegacy(
      filter,
      this.#host.server?.capabilities,
      (uri) => this.subscribe(uri, undefined),
      (uri) => this.unsubscribe(uri, undefined),
    );
  }

  notifyRootsChanged(): Promise<void> {
    return this.#host.channel.notify('notifications/roots/list_changed');
  }

  /**
   * Sampling, elicitation, roots and ping, answered by the app's handlers.
   * Nothing runs in a handler slot before the answering module loads, so a
   * `ping` then is answered at once.
   */
  async serverRequest({ method, params }: JsonRpcRequest, signal: AbortSignal): Promise<Record<string, unknown>> {
    if (method === 'ping' && !this.#host.loadedAnswering()) return {};
    return (await this.#host.answering()).answer(method, params, signal);
  }

  /** The new session knows none of the old one's subscriptions: each is sent again. */
  async renewed(signal: AbortSignal): Promise<void> {
    for (const uri of this.#subscriptions) {
      await this.#host.channel.request('resources/subscribe', { uri }, { parse: parseEmpty, signal });
    }
  }
}

function initialize(context: ConnectContext, protocolVersion: string) {
  const params = { protocolVersion, capabilities: context.capabilities, clientInfo: context.clientInfo };
  return context.channel.request('initialize', params, {
    ...context.call,
    parse: parseInitialize,
    cancellable: false,
  });
}

/** The versions a -32602 refusal of `initialize` lists, if it lists any. */
function supportedVersions(error: unknown): readonly string[] | undefined {
  return error instanceof RpcError && error.code === ErrorCode.InvalidParams
    ? supportedVersionsIn(error.data)
    : undefined;
}
