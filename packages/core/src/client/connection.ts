import { CapabilityError } from '../errors/capability-error.js';
import { McpError } from '../errors/mcp-error.js';
import { SessionExpiredError } from '../errors/session-expired-error.js';
import type { Implementation } from '../protocol/implementation.js';
import { isModernProtocolVersion } from '../protocol/versions.js';
import { type Transport, type TransportHooks, transportHooks } from '../transport/transport.js';
import { lazy } from '../util/lazy.js';
import { type CapabilityPath, clientCapabilities, hasCapability } from './capabilities.js';
import type { ConnectContext, Era, EraRequestOptions, ServerIdentity } from './era.js';
import { chooseEra, sharedEraCache } from './era-detection.js';
import { legacyEra } from './legacy-era.js';
import type { ModernEra } from './modern-era.js';
import {
  type CallOptions,
  type ClientOptions,
  DEFAULT_CLIENT_INFO,
  DEFAULT_MAX_CACHE_ENTRIES,
  DEFAULT_MAX_TOTAL_TIMEOUT,
  DEFAULT_PROBE_TIMEOUT,
  DEFAULT_REQUEST_TIMEOUT,
} from './options.js';
import { parseEmpty } from './parsers.js';
import type { ResultCache } from './result-cache.js';
import type { RpcChannel } from './rpc-channel.js';
import type { SessionSnapshot } from './session.js';

/** Waiting for a session renewal, loaded when a session first expires. */
const renewalWait = lazy(() => import('./renewal-wait.js'));

/** Methods whose results carry cache hints (2026-07-28 §Caching). */
const CACHEABLE = new Set([
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

/** Whether a result asks to be kept: a positive `ttlMs` (absent or not positive means 0, §Caching). */
function hasTtl(raw: unknown): boolean {
  const ttl = typeof raw === 'object' && raw !== null ? (raw as { ttlMs?: unknown }).ttlMs : undefined;
  return typeof ttl === 'number' && ttl > 0;
}

/**
 * The Client's link to its server: which era it speaks and what it learned
 * (connect, resume, snapshot), and the one path every request takes — the
 * capability check before anything is sent, the TTL cache, the era, and one
 * shared session renewal when the server says the session expired.
 */
export class Connection {
  readonly #transport: Transport;
  readonly #hooks: TransportHooks;
  readonly #channel: RpcChannel;
  readonly #options: ClientOptions;
  readonly #modern: ModernEra;
  /** Created on the first result that carries a TTL (only 2026-07-28 servers send one). */
  #cache: ResultCache | undefined;
  readonly #loadCache = lazy(
    async () =>
      new (await import('./result-cache.js')).ResultCache(
        this.#options.limits?.maxCacheEntries ?? DEFAULT_MAX_CACHE_ENTRIES,
      ),
  );
  /** The client does something with messages the server starts on its own (SessionInfo.serverMessages). */
  #serverMessages: boolean;
  /** Resources subscribed to (legacy), so a renewed session can subscribe again. */
  readonly subscriptions = new Set<string>();
  #era: Era = legacyEra;
  #server: ServerIdentity | undefined;
  #connecting: Promise<void> | undefined;
  /** The session renewal under way: at most one at a time, shared by every call that needs it. */
  #renewing: Promise<void> | undefined;
  /** Counts session renewals, so a late 404 does not start another one. */
  #generation = 0;

  constructor(transport: Transport, channel: RpcChannel, options: ClientOptions, modern: ModernEra) {
    this.#transport = transport;
    this.#hooks = transportHooks(transport);
    this.#channel = channel;
    this.#options = options;
    this.#modern = modern;
    const { sampling, elicitation, roots, onNotification } = options;
    this.#serverMessages = Boolean(sampling || elicitation || roots || onNotification);
  }

  get era(): Era {
    return this.#era;
  }

  get server(): ServerIdentity | undefined {
    return this.#server;
  }

  get clientInfo(): Implementation {
    return this.#options.clientInfo ?? DEFAULT_CLIENT_INFO;
  }

  /** A server notification: drop what it makes stale. */
  noticed(method: string, params: Readonly<Record<string, unknown>> | undefined): void {
    this.#cache?.invalidate(method, params);
  }

  /** Something (a legacy `listen()`) now wants what the server sends on its own: HTTP opens its GET stream. */
  wantServerMessages(): void {
    this.#serverMessages = true;
    if (this.#era.kind === 'legacy') this.#hooks.openServerStream?.();
  }

  /** Detects the era and opens the session, or continues `resume`; once. */
  connect(options: CallOptions, onFailure: () => Promise<void>): Promise<void> {
    this.#connecting ??= (async () => {
      this.#channel.start();
      const { resume } = this.#options;
      try {
        if (resume) {
          this.#era = isModernProtocolVersion(resume.protocolVersion) ? this.#modern : legacyEra;
          this.#started(resume, resume.sessionId);
        } else {
          const eras = { legacy: legacyEra, modern: this.#modern };
          const probeTimeout = this.#options.limits?.probeTimeout ?? DEFAULT_PROBE_TIMEOUT;
          const cache = this.#options.eraCache ?? sharedEraCache;
          const choice = await chooseEra(this.#transport, this.#context(options), eras, { probeTimeout, cache });
          this.#era = choice.era;
          this.#started(choice.server);
        }
      } catch (error) {
        await onFailure();
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

  /** Why `method` must not be sent now, checked before anything goes on the wire. */
  refusal(method: string, capability?: CapabilityPath): Error | undefined {
    if (this.#channel.ended) return undefined; // the channel rejects with the reason it ended
    if (!this.#server) return new McpError(`${method}: call connect() first`);
    if (capability && !hasCapability(this.#server.capabilities, capability)) {
      return new CapabilityError(capability, method);
    }
    return undefined;
  }

  /**
   * Sends through the era, through the TTL cache where results are cacheable
   * (a method that is not pays for none of it), renewing an expired session once.
   */
  async request<T>(
    method: string,
    params: Record<string, unknown> | undefined,
    parse: (raw: unknown) => T,
    options: CallOptions = {},
  ): Promise<T> {
    const startedAt = performance.now();
    if (!CACHEABLE.has(method) || options.cache === false) {
      return this.#send(method, params, { ...options, parse, startedAt });
    }
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
    if (!retried && hasTtl(raw)) {
      this.#cache ??= await this.#loadCache();
      this.#cache.set(key, value, raw, await credential());
    }
    return value;
  }

  /**
   * Sends through the era. When the server says the session expired (HTTP 404),
   * or the transport knows it is gone: one new handshake, shared by every call
   * that needs it, and one resend. The wait and the resend get what is left of
   * the call's `maxTotalTimeout`, not a fresh one.
   */
  async #send<T>(
    method: string,
    params: Record<string, unknown> | undefined,
    options: EraRequestOptions<T>,
  ): Promise<T> {
    const generation = this.#generation;
    try {
      return await this.#era.request(this.#channel, method, params, options);
    } catch (error) {
      if (!(error instanceof SessionExpiredError) || error.delivered) throw error;
      const { asCallTimeout, remainingTotal } = await renewalWait();
      const cap = options.maxTotalTimeout ?? this.#options.maxTotalTimeout ?? DEFAULT_MAX_TOTAL_TIMEOUT;
      try {
        await this.#renewal(generation, method, options, remainingTotal(method, cap, options.startedAt));
        const maxTotalTimeout = remainingTotal(method, cap, options.startedAt);
        const resend = { ...options, maxTotalTimeout, startedAt: performance.now() };
        return await this.#era.request(this.#channel, method, params, resend);
      } catch (error) {
        throw asCallTimeout(error, method, cap, options.startedAt);
      }
    }
  }

  /**
   * Waits for the session's renewal, starting one unless it is under way, no
   * longer than the call's own signal and timeout allow; none for a request
   * sent before a renewal that already happened. A renewal that fails
   * fails the calls waiting for it and leaves the session gone, so the next call
   * starts another: never more than one at a time, never a retry within a call.
   * The renewal as a whole gets `requestTimeout`: a server that never answers
   * part of the handshake cannot hold every later call. A call waits no longer
   * than `left`, what remains of its hard cap (0 or `Infinity`: none).
   */
  async #renewal(generation: number, method: string, options: CallOptions, left: number): Promise<void> {
    const { waitForRenewal } = await renewalWait();
    if (generation !== this.#generation) return;
    const { signal } = options;
    if (signal?.aborted) throw signal.reason;
    const requestTimeout = this.#options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT;
    if (!this.#renewing) {
      const stop = new AbortController();
      this.#renewing = waitForRenewal(this.#renew(stop.signal), 'the session renewal', undefined, requestTimeout)
        .catch((error: unknown) => {
          stop.abort(error);
          throw error;
        })
        .finally(() => {
          this.#renewing = undefined;
        });
    }
    const timeout = options.timeout ?? requestTimeout;
    const timeoutMs = left ? Math.min(timeout || Infinity, left) : timeout;
    return waitForRenewal(this.#renewing, `${method} (waiting for a new session)`, signal, timeoutMs);
  }

  /**
   * A new handshake, bound to no one call (a caller that gives up leaves it to
   * the others) but to `signal`: one that timed out must not start its session
   * late, over a newer one.
   */
  async #renew(signal: AbortSignal): Promise<void> {
    const server = await this.#era.connect(this.#context({ signal }));
    if (signal.aborted) throw signal.reason;
    this.#started(server);
    this.#generation++;
    this.#cache?.clear();
    for (const uri of this.subscriptions) {
      await this.#era.request(this.#channel, 'resources/subscribe', { uri }, { parse: parseEmpty, signal });
    }
  }

  #context(options: CallOptions): ConnectContext {
    return {
      channel: this.#channel,
      clientInfo: this.clientInfo,
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
