import { Client } from '../client/client.js';
import {
  type CallOptions,
  type CallToolOptions,
  type ClientOptions,
  DEFAULT_REQUEST_TIMEOUT,
  type EraCache,
} from '../client/options.js';
import type { SessionSnapshot } from '../client/session-snapshot.js';
import { TransportError } from '../errors/transport-error.js';
import type { ToolResult } from '../protocol/tools.js';
import { StreamableHttpTransport } from '../transport/http/streamable-http-transport.js';
import { type Transport, transportHooks } from '../transport/transport.js';
import { lazy } from '../util/lazy.js';
import { MAX_TIMER, timerDelay } from '../util/timers.js';
import { ConnectionError } from './connection-error.js';
import type { ConnectionOAuth } from './connection-oauth.js';
import {
  type ConnectionOptions,
  checkBound,
  DEFAULT_BASE_DELAY,
  DEFAULT_CONNECT_TIMEOUT,
  DEFAULT_HEALTH_INTERVAL,
  DEFAULT_HEALTH_TIMEOUT,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MAX_DELAY,
  DEFAULT_MAX_ELAPSED,
  DEFAULT_PREFIX,
} from './connection-options.js';
import type { ConnectionEvent, ConnectionSnapshot, ConnectionState } from './connection-state.js';
import { failureKind } from './failure-kind.js';
import { KeptLists, type ListsHost } from './kept-lists.js';
import { PendingQueue } from './pending-queue.js';
import { PersistedSession } from './persisted-session.js';
import { ReconnectBudget } from './reconnect-budget.js';
import { checkServerConfig, type ServerConfig } from './server-config.js';
import { watchedTransport } from './watched-transport.js';

/**
 * OAuth's provider and gate, loaded at the first attempt of a connection whose
 * config says `oauth: true`: an app whose servers need no sign-in never loads them.
 */
const oauthFeature = lazy(() => import('./connection-oauth.js'));

/** Hears each event of a connection; a `() => void` fits too (`useSyncExternalStore`'s callback). */
export type ConnectionListener = (event: ConnectionEvent) => void;

/** Options of `close()`. */
export interface CloseOptions {
  /**
   * Leave the server's session open and its stored snapshot in the store, so a
   * later connection (the next page, process or Worker invocation) resumes it
   * with no handshake (default false: the session is ended, and forgotten).
   */
  readonly keepSession?: boolean;
}

/** The client of the attempt under way or of the ready connection, and what goes with it. */
interface Live {
  readonly generation: number;
  readonly client: Client;
  readonly serverKey: string | undefined;
  lists?: KeptLists;
  /** The session id last written to the store, to write it again only when a renewal changed it. */
  savedSession?: string | undefined;
  /** The GET stream was given up before the attempt was ready: dealt with once it is. */
  lostStream?: { readonly error: Error; readonly spent: boolean };
}

/**
 * One MCP server and the state an app shows for it: `idle`, `connecting`,
 * `authorizing`, `ready`, `reconnecting`, `failed` or `closed`. It owns the
 * `Client` (a new one for each attempt), keeps the tool list current (prompts
 * and resources when asked), reconnects a dropped connection within a budget,
 * and, with a store, resumes the stored session with no handshake.
 *
 * Watch it with `subscribe()` and `getSnapshot()`: the snapshot is immutable and
 * keeps its identity until something in it changed, so React's
 * `useSyncExternalStore`, a Svelte store or a Vue ref each take a few lines.
 *
 * ```ts
 * const github = new Connection({ name: 'github', url: 'https://example.com/mcp' }, { store });
 * github.subscribe(() => render(github.getSnapshot()));
 * await github.connect();
 * const result = await github.callTool('search', { query: 'mcp' });
 * ```
 */
export class Connection {
  readonly #config: ServerConfig;
  readonly #options: ConnectionOptions;
  readonly #budget: ReconnectBudget;
  readonly #connectTimeout: number;
  readonly #health: { readonly intervalMs: number; readonly timeoutMs: number } | undefined;
  readonly #persisted: PersistedSession | undefined;
  /** The provider and the gate that holds an authorization for the user's gesture, once an attempt made them. */
  #oauth: ConnectionOAuth | undefined;
  /** Server requests waiting for the user, unless `pending: false`. */
  readonly #queue: PendingQueue | undefined;
  /** The state to go back to when the user is done authorizing: `connecting` (its attempt) or `ready`. */
  #beforeAuthorizing: ConnectionState | undefined;
  readonly #listeners = new Set<ConnectionListener>();
  /** Each called at the next state that settles a wait: ready, failed or closed. */
  readonly #waiters = new Set<(state: ConnectionState) => void>();
  #snapshot: ConnectionSnapshot;
  /** Bumped by every attempt, drop and close: a callback of an older one finds it changed and does nothing. */
  #generation = 0;
  #live: Live | undefined;
  /** Ends the attempt under way (its connect timeout, or close). */
  #attempt: AbortController | undefined;
  /** The attempt's connect timeout. */
  #deadline: ReturnType<typeof setTimeout> | undefined;
  /** The next reconnect attempt, or the next health check: never both. */
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closing: Promise<void> | undefined;
  /**
   * Whether closing a transport ends the session on the server (HTTP DELETE):
   * only at `close()` without `keepSession`. A client let go after a drop keeps
   * its session, which the next attempt resumes.
   */
  #endSession = false;
  /** The last session, for resuming after a drop when there is no store. */
  #lastSession: { readonly serverKey: string | undefined; readonly session: SessionSnapshot } | undefined;

  /**
   * A connection to `config`'s server; nothing happens until `connect()`.
   * Throws a `ConnectionError` (`invalid_config`) for an unusable config and a
   * RangeError for a bound that is not a number from 0 up. The `oauth` options
   * are checked when the first attempt makes the provider: a bad one fails it.
   */
  constructor(config: ServerConfig, options: ConnectionOptions = {}) {
    this.#config = checkServerConfig(config);
    this.#options = options;
    const { reconnect = {}, healthCheck, store, sessionStore } = options;
    this.#budget = new ReconnectBudget(
      {
        maxAttempts: checkBound('reconnect.maxAttempts', reconnect.maxAttempts, DEFAULT_MAX_ATTEMPTS, true),
        maxElapsedMs: checkBound('reconnect.maxElapsedMs', reconnect.maxElapsedMs, DEFAULT_MAX_ELAPSED, true),
        baseDelayMs: checkBound('reconnect.baseDelayMs', reconnect.baseDelayMs, DEFAULT_BASE_DELAY),
        maxDelayMs: checkBound('reconnect.maxDelayMs', reconnect.maxDelayMs, DEFAULT_MAX_DELAY),
      },
      options.random ?? Math.random,
    );
    this.#connectTimeout = checkBound('connectTimeout', options.connectTimeout, DEFAULT_CONNECT_TIMEOUT, true);
    if (healthCheck) {
      this.#health = {
        intervalMs: checkBound('healthCheck.intervalMs', healthCheck.intervalMs, DEFAULT_HEALTH_INTERVAL),
        timeoutMs: checkBound('healthCheck.timeoutMs', healthCheck.timeoutMs, DEFAULT_HEALTH_TIMEOUT),
      };
    }
    const prefix = options.prefix ?? DEFAULT_PREFIX;
    const sessions = sessionStore ?? store;
    if (sessions) {
      // The era verdict is the server's, not the session's: it goes to the shared store when there is one.
      const eras = store ?? sessions;
      this.#persisted = new PersistedSession(sessions, eras, prefix, config.name, (error) => this.#warn(error));
    }
    if (options.pending !== false) {
      const queue = new PendingQueue({
        ...options.pending,
        onChange: () => this.#update({ pending: queue.items }),
        onEvent: (event) => this.#emit(event),
      });
      this.#queue = queue;
    }
    const { lists } = options;
    this.#snapshot = Object.freeze({
      name: config.name,
      state: IDLE,
      tools: EMPTY,
      ...(lists?.prompts && { prompts: EMPTY }),
      ...(lists?.resources && { resources: EMPTY }),
      pending: EMPTY,
    });
  }

  /** The server's name, from its config. */
  get name(): string {
    return this.#config.name;
  }

  /** The config this connection was made with. */
  get config(): ServerConfig {
    return this.#config;
  }

  /**
   * The connection as it is now: the same object until something in it
   * changes. Bound to the connection, so it can be passed on as it is
   * (`useSyncExternalStore(connection.subscribe, connection.getSnapshot)`).
   */
  readonly getSnapshot = (): ConnectionSnapshot => this.#snapshot;

  /**
   * Calls `listener` with each event: state changes, list refreshes, pending
   * requests, health checks. Returns the function that stops it. A listener
   * that throws is reported to `client.onError` and stops nothing else. Bound
   * to the connection, as `getSnapshot` is.
   */
  readonly subscribe = (listener: ConnectionListener): (() => void) => {
    // A wrapper per call, so subscribing the same function twice needs two unsubscribes.
    const entry: ConnectionListener = (event) => listener(event);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  };

  /**
   * The live `Client` while `ready`, for what the connection does not wrap.
   * Throws a `ConnectionError` otherwise (`not_ready`, `failed` or `closed`):
   * the client of a dropped connection is closed and must not be kept.
   */
  get client(): Client {
    const live = this.#live;
    if (this.#snapshot.state.status === 'ready' && live) return live.client;
    throw this.#unavailable();
  }

  /**
   * Runs the app's `oauth.authorize` handler with the authorization URL the
   * connection waits on (`authorizing`), synchronously, before this returns:
   * call it from the user's click, since browsers open popups only there. A
   * blocked popup leaves the URL in the state (`popupBlocked`) for a plain
   * link. Resolves when the handler settled, never rejects; does nothing when
   * no authorization waits.
   */
  authorize(): Promise<void> {
    return this.#oauth?.gate?.authorize() ?? Promise.resolve();
  }

  /**
   * Completes the waiting authorization with the URL its callback page was
   * opened with (the plain-link path, once that page hands its URL over): true
   * when it was this connection's flow.
   */
  completeAuthorization(callbackUrl: string | URL): boolean {
    return this.#oauth?.gate?.complete(callbackUrl) ?? false;
  }

  /**
   * Connects from `idle` or `failed` (a failed connection starts with a whole
   * reconnect budget); in any other state it only waits. Resolves once `ready`;
   * rejects with the error of `failed`, or a `ConnectionError` (`closed`).
   * Nobody need await it: its rejection is never unhandled.
   */
  connect(): Promise<void> {
    const { status } = this.#snapshot.state;
    if (status === 'idle' || status === 'failed') {
      this.#budget.reset();
      this.#start(0);
    }
    return this.#whenReady();
  }

  /**
   * Tries again now: from `failed` with a whole budget, or from `reconnecting`
   * without waiting for the next attempt; from `idle` it connects. In other
   * states it only waits, as `connect()` does.
   */
  reconnect(): Promise<void> {
    const { status } = this.#snapshot.state;
    if (status === 'idle') return this.connect();
    if (status === 'failed' || status === 'reconnecting') {
      this.#clearTimer();
      this.#budget.reset();
      this.#start(0);
    }
    return this.#whenReady();
  }

  /**
   * Calls a tool once the connection is ready, waiting for it within the call's
   * `signal` and `timeout` (default: the client's `requestTimeout`) while it is
   * connecting, authorizing or reconnecting. Rejects at once when it is idle,
   * failed or closed (`ConnectionError`). A call that fails because the server
   * went away rejects with that error and starts reconnecting.
   */
  async callTool(name: string, args: Record<string, unknown> = {}, options: CallToolOptions = {}): Promise<ToolResult> {
    const { live, remaining } = await this.#readyWithin(options);
    try {
      const result = await live.client.callTool(name, args, remaining ? { ...options, timeout: remaining } : options);
      this.#progress(live);
      return result;
    } catch (error) {
      if (failureKind(error) === 'drop') this.#dropped(live.generation, error);
      throw error;
    }
  }

  /**
   * Closes the connection for good, from any state: the attempt or wait under way
   * ends, the client closes, nothing reconnects. Idempotent. Unless
   * `keepSession`, the server's session is ended and its stored snapshot deleted.
   */
  close(options: CloseOptions = {}): Promise<void> {
    this.#closing ??= this.#close(options.keepSession === true);
    return this.#closing;
  }

  async #close(keepSession: boolean): Promise<void> {
    this.#endSession = !keepSession;
    const live = this.#live;
    this.#generation++;
    this.#live = undefined;
    this.#attempt?.abort(new ConnectionError('closed', `${this.name}: the connection was closed`));
    this.#attempt = undefined;
    this.#clearDeadline();
    this.#clearTimer();
    live?.lists?.close();
    this.#setState(CLOSED);
    // After the state: a gate or queue emptying now must not look like a way back to `connecting`.
    this.#oauth?.gate?.close();
    this.#queue?.close(new ConnectionError('closed', `${this.name}: the connection was closed`));
    await live?.client.close();
    if (!keepSession) await this.#forgetSession();
  }

  /** A new attempt: number 0 is the first connection, n the n-th reconnect. */
  #start(attempt: number): void {
    const generation = ++this.#generation;
    const controller = new AbortController();
    this.#attempt = controller;
    this.#setState({ status: 'connecting', attempt });
    this.#armDeadline(controller);
    void this.#run(generation, controller.signal, true);
  }

  /** Ends the attempt of `controller` after `connectTimeout` (none when Infinity: it waits as long as the server takes). */
  #armDeadline(controller: AbortController): void {
    this.#clearDeadline();
    const timeout = this.#connectTimeout;
    if (timeout === Infinity) return;
    this.#deadline = setTimeout(() => {
      const message = `${this.name}: connecting took longer than ${timeout} ms (connectTimeout)`;
      controller.abort(new DOMException(message, 'TimeoutError'));
    }, timerDelay(timeout));
  }

  /**
   * The gate shows an authorization for the user, or stopped showing one: the
   * connection waits in `authorizing` meanwhile, its attempt's clock stopped,
   * then goes back to where it was (`connecting`, or `ready` for a step-up).
   */
  #authorizationChanged(): void {
    const shown = this.#oauth?.gate?.state;
    const state = this.#snapshot.state;
    if (shown) {
      if (state.status === 'connecting' || state.status === 'ready') {
        this.#beforeAuthorizing = state;
        this.#clearDeadline();
      } else if (state.status !== 'authorizing') {
        return;
      }
      this.#setState(
        'authorizationUrl' in shown
          ? {
              status: 'authorizing',
              authorizationUrl: shown.authorizationUrl,
              ...(shown.popupBlocked && { popupBlocked: true }),
            }
          : { status: 'authorizing', elsewhere: true },
      );
    } else if (state.status === 'authorizing') {
      const back = this.#beforeAuthorizing ?? READY;
      this.#beforeAuthorizing = undefined;
      if (back.status === 'connecting' && this.#attempt) this.#armDeadline(this.#attempt);
      this.#setState(back);
    }
  }

  /**
   * The OAuth of a config that asks for it, made at the first attempt (when its
   * code loads; a load that failed fails the attempt, and the next one loads again).
   */
  async #oauthOf(): Promise<ConnectionOAuth | undefined> {
    if (!this.#config.oauth) return undefined;
    const { connectionOAuth } = await oauthFeature();
    const prefix = this.#options.prefix ?? DEFAULT_PREFIX;
    this.#oauth ??= connectionOAuth(this.#options, prefix, () => this.#authorizationChanged());
    return this.#oauth;
  }

  /** One attempt, to its end: `ready`, or the failure sorted (reconnect, fail). Never rejects. */
  async #run(generation: number, signal: AbortSignal, useStored: boolean): Promise<void> {
    let live: Live | undefined;
    let resumed = false;
    try {
      const oauth = await this.#oauthOf();
      if (generation !== this.#generation) return;
      const transport = watchedTransport(this.#transport(oauth), {
        ended: (error) => this.#ended(generation, error),
        streamLost: (error, spent) => this.#streamLost(generation, error, spent),
      });
      const serverKey = transportHooks(transport).serverKey;
      const resume = useStored ? await this.#storedSession(serverKey) : undefined;
      const eraCache = await this.#persisted?.eraCache(serverKey);
      if (generation !== this.#generation) {
        await transport.close();
        return;
      }
      resumed = resume !== undefined;
      live = { generation, client: new Client(transport, this.#clientOptions(resume, eraCache)), serverKey };
      this.#live = live;
      // The attempt's own deadline bounds the whole of it; the client's per-request timeout must not cut in first.
      await live.client.connect({ signal, timeout: MAX_TIMER, maxTotalTimeout: 0 });
      live.lists = new KeptLists(live.client, this.#options.lists ?? {}, this.#listsHost(generation));
      await live.lists.start(signal);
      await this.#saveSession(live);
      if (generation !== this.#generation) return;
      this.#oauth?.gate?.done();
      this.#becameReady(live);
    } catch (error) {
      if (generation !== this.#generation) return;
      // However the attempt ended, other tabs waiting on its authorization may go on.
      this.#oauth?.gate?.done();
      this.#live = undefined;
      live?.lists?.close();
      void live?.client.close().catch(() => {});
      // A stored session the server refuses for a reason other than being away: forget it, handshake afresh.
      if (resumed && failureKind(error) === 'fatal') {
        this.#warn(new Error(`${this.name}: the stored session was refused; connecting afresh`, { cause: error }));
        await this.#forgetSession();
        if (generation === this.#generation) return this.#run(generation, signal, false);
        return;
      }
      this.#attempt = undefined;
      this.#clearDeadline();
      this.#failure(error);
    }
  }

  /** The attempt succeeded: what the server said of itself goes in the snapshot, with `ready`. */
  #becameReady(live: Live): void {
    this.#attempt = undefined;
    this.#clearDeadline();
    this.#update(identity(live.client));
    this.#setState(READY);
    this.#scheduleHealth(live.generation);
    const lost = live.lostStream;
    if (lost) this.#streamLost(live.generation, lost.error, lost.spent);
  }

  /** The transport of one attempt: the config's factory, or Streamable HTTP to its URL (signed by `oauth`). */
  #transport(oauth: ConnectionOAuth | undefined): Transport {
    const { url, transport, headers } = this.#config;
    if (transport) return transport();
    const endSession = () => this.#endSession;
    return new StreamableHttpTransport(url as string | URL, {
      ...this.#options.http,
      ...(headers && { headers }),
      ...(oauth && { auth: oauth.provider }),
      // Read when the transport closes, which is when the app has said whether to keep the session.
      get endSessionOnClose() {
        return endSession();
      },
    });
  }

  /** The queue's `elicitation` and `sampling` handlers, unless the app gave its own; the stored session and era. */
  #clientOptions(resume: SessionSnapshot | undefined, eraCache: EraCache | undefined): ClientOptions {
    const queue = this.#queue;
    return {
      ...(queue && { elicitation: queue.elicitation, sampling: queue.sampling }),
      ...this.#options.client,
      ...(resume && { resume }),
      ...(eraCache && { eraCache }),
    };
  }

  #listsHost(generation: number): ListsHost {
    return {
      listed: (list, items) => {
        const live = this.#live;
        if (generation !== this.#generation || !live) return;
        this.#progress(live);
        const listError = this.#snapshot.listError?.list === list ? undefined : this.#snapshot.listError;
        this.#update({ [list]: Object.freeze([...items]) }, listError);
        this.#emit({ type: 'lists', list });
      },
      failed: (list, error) => {
        if (generation !== this.#generation) return;
        this.#update({ listError: { list, error } });
        this.#emit({ type: 'lists', list, error });
      },
      dropped: (error) => this.#dropped(generation, error),
    };
  }

  /** The inbound stream of attempt `generation`'s transport ended. */
  #ended(generation: number, error: Error | undefined): void {
    // While connecting, the attempt's own call fails with it; after close, nothing matters.
    this.#dropped(generation, error ?? new TransportError(`${this.name}: the server closed the connection`));
  }

  /**
   * The GET stream of attempt `generation`'s session is given up: server
   * notifications (a changed tool list, server requests) would no longer come.
   * Its reopenings all failed: the way to the server is gone, and the
   * connection reconnects now rather than at the next call or health check
   * (the next attempt opens a new stream). The server refused it: one ping
   * says whether the server is still there; a server that answers stays ready,
   * since reconnecting would not make it offer the stream.
   */
  #streamLost(generation: number, error: Error, spent: boolean): void {
    const live = this.#live;
    if (generation !== this.#generation || !live) return;
    if (this.#snapshot.state.status !== 'ready') {
      live.lostStream = { error, spent };
      return;
    }
    if (spent) {
      const lost = `${this.name}: the server's stream (HTTP GET) could not be reopened`;
      this.#dropped(generation, new TransportError(lost, { cause: error }));
      return;
    }
    this.#clearTimer();
    void this.#ping(generation, this.#health?.timeoutMs ?? DEFAULT_HEALTH_TIMEOUT);
  }

  /** The ready connection of `generation` lost its server: close what is left of it and reconnect. */
  #dropped(generation: number, error: unknown): void {
    const live = this.#live;
    const { status } = this.#snapshot.state;
    if (generation !== this.#generation || !live || (status !== 'ready' && status !== 'authorizing')) return;
    this.#generation++;
    this.#live = undefined;
    this.#clearTimer();
    live.lists?.close();
    void live.client.close().catch(() => {});
    this.#failure(error);
  }

  /** Where a failure leads: a drop to the next attempt within the budget, anything else to `failed`. */
  #failure(error: unknown): void {
    const cause = error instanceof Error ? error : new Error(String(error));
    // What only the user can fix and the gate did not hold for them (no `oauth.authorize`, a denial) fails too.
    if (failureKind(cause) !== 'drop') {
      this.#setState({ status: 'failed', error: cause });
      return;
    }
    const planned = this.#budget.next(Date.now());
    if (!planned) {
      const spent = `${this.name}: gave up reconnecting after ${this.#budget.attempts} attempts (reconnect.maxAttempts, reconnect.maxElapsedMs)`;
      this.#setState({ status: 'failed', error: new ConnectionError('reconnect_budget', spent, { cause }) });
      return;
    }
    const nextAttemptAt = Date.now() + planned.delay;
    this.#setState({ status: 'reconnecting', attempt: planned.attempt, nextAttemptAt, error: cause });
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#start(planned.attempt);
    }, planned.delay);
  }

  /**
   * A request succeeded on `live`: the budget is whole again. Once ready, a
   * session the client renewed meanwhile (the server forgot the old one) is
   * stored, and what the server now says of itself goes in the snapshot.
   */
  #progress(live: Live): void {
    if (live.generation !== this.#generation) return;
    this.#budget.reset();
    if (this.#snapshot.state.status !== 'ready' || live.client.session?.sessionId === live.savedSession) return;
    void this.#saveSession(live);
    this.#update(identity(live.client));
  }

  /** The session to resume: the store's when there is one (another tab may have renewed it), else the last one. */
  async #storedSession(serverKey: string | undefined): Promise<SessionSnapshot | undefined> {
    if (this.#persisted) return this.#persisted.load(serverKey);
    const last = this.#lastSession;
    return last && last.serverKey === serverKey ? last.session : undefined;
  }

  async #saveSession(live: Live): Promise<void> {
    const session = live.client.session;
    live.savedSession = session?.sessionId;
    if (session) this.#lastSession = { serverKey: live.serverKey, session };
    await this.#persisted?.save(live.serverKey, session);
  }

  async #forgetSession(): Promise<void> {
    this.#lastSession = undefined;
    await this.#persisted?.forget();
  }

  #scheduleHealth(generation: number): void {
    const health = this.#health;
    if (!health) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#ping(generation, health.timeoutMs);
    }, timerDelay(health.intervalMs));
  }

  /** One health check: a failure that is a drop reconnects, any other is reported and the checks go on. */
  async #ping(generation: number, timeout: number): Promise<void> {
    const live = this.#live;
    if (generation !== this.#generation || !live) return;
    // While the user signs in, requests wait for them: a ping would time out for no fault of the server's.
    if (this.#snapshot.state.status !== 'ready') {
      this.#scheduleHealth(generation);
      return;
    }
    try {
      await live.client.ping({ timeout, maxTotalTimeout: timeout });
      if (generation !== this.#generation) return;
      this.#progress(live);
      this.#emit({ type: 'health', ok: true });
      this.#scheduleHealth(generation);
    } catch (error) {
      if (generation !== this.#generation) return;
      const cause = error instanceof Error ? error : new Error(String(error));
      this.#emit({ type: 'health', ok: false, error: cause });
      if (failureKind(cause) === 'drop') this.#dropped(generation, cause);
      else this.#scheduleHealth(generation);
    }
  }

  /** The ready connection, waiting for it within the call's signal and timeout when it is on its way. */
  async #readyWithin(options: CallOptions): Promise<{ live: Live; remaining?: number }> {
    const live = this.#live;
    if (this.#snapshot.state.status === 'ready' && live) return { live };
    const { status } = this.#snapshot.state;
    if (status === 'idle' || status === 'failed' || status === 'closed') throw this.#unavailable();
    const timeout = options.timeout ?? this.#options.client?.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT;
    const started = Date.now();
    await new Promise<void>((resolve, reject) => {
      const { signal } = options;
      const done = (error?: unknown) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.#waiters.delete(waiter);
        if (error === undefined) resolve();
        else reject(error);
      };
      const waiter = (state: ConnectionState) => done(state.status === 'ready' ? undefined : this.#unavailable());
      const onAbort = () => done(signal?.reason);
      const timer = setTimeout(() => {
        done(new DOMException(`${this.name}: not ready within ${timeout} ms`, 'TimeoutError'));
      }, timerDelay(timeout));
      this.#waiters.add(waiter);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    const ready = this.#live;
    if (!ready) throw this.#unavailable();
    return { live: ready, remaining: Math.max(1, timeout - (Date.now() - started)) };
  }

  /** Resolves at `ready`, rejects at `failed` or `closed`; its rejection is handled, so nobody need await it. */
  #whenReady(): Promise<void> {
    const { status } = this.#snapshot.state;
    const promise =
      status === 'ready'
        ? Promise.resolve()
        : status === 'closed'
          ? Promise.reject(this.#unavailable())
          : new Promise<void>((resolve, reject) => {
              this.#waiters.add((state) => {
                if (state.status === 'ready') resolve();
                else reject(state.status === 'failed' ? state.error : this.#unavailable());
              });
            });
    promise.catch(() => {});
    return promise;
  }

  /** Why there is no client to use now, as the state says. */
  #unavailable(): ConnectionError {
    const state = this.#snapshot.state;
    if (state.status === 'closed') return new ConnectionError('closed', `${this.name}: the connection is closed`);
    if (state.status === 'failed') {
      return new ConnectionError('failed', `${this.name}: the connection failed: ${state.error.message}`, {
        cause: state.error,
      });
    }
    const hint = state.status === 'idle' ? ': call connect() first' : '';
    return new ConnectionError('not_ready', `${this.name}: the connection is ${state.status}${hint}`);
  }

  #setState(to: ConnectionState): void {
    const from = this.#snapshot.state;
    this.#update({ state: to });
    this.#emit({ type: 'state', from, to });
    if (to.status === 'ready' || to.status === 'failed' || to.status === 'closed') {
      const waiters = [...this.#waiters];
      this.#waiters.clear();
      for (const waiter of waiters) waiter(to);
    }
  }

  /**
   * A new snapshot with `patch` applied. `listError` replaces the one there when
   * given as an argument (undefined clears it); exactOptionalPropertyTypes keeps
   * a patch from carrying an undefined field.
   */
  #update(patch: Partial<ConnectionSnapshot>, ...listError: [ConnectionSnapshot['listError']?]): void {
    const next: ConnectionSnapshot = { ...this.#snapshot, ...patch };
    if (listError.length > 0) {
      const { listError: _dropped, ...rest } = next;
      this.#snapshot = Object.freeze(listError[0] ? { ...rest, listError: listError[0] } : rest);
      return;
    }
    this.#snapshot = Object.freeze(next);
  }

  #emit(event: ConnectionEvent): void {
    this.#call(this.#options.onEvent, event);
    for (const listener of [...this.#listeners]) this.#call(listener, event);
  }

  #call(listener: ConnectionListener | undefined, event: ConnectionEvent): void {
    try {
      listener?.(event);
    } catch (error) {
      this.#options.client?.onError?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Something the connection worked around: a store that failed, a stored session that was garbage. */
  #warn(error: Error): void {
    this.#emit({ type: 'warning', error });
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #clearDeadline(): void {
    if (this.#deadline !== undefined) clearTimeout(this.#deadline);
    this.#deadline = undefined;
  }
}

/** What the server said of itself, for the snapshot. */
function identity(client: Client): Partial<ConnectionSnapshot> {
  const { serverInfo, serverCapabilities, instructions, protocolVersion } = client;
  return {
    ...(serverInfo && { serverInfo }),
    ...(serverCapabilities && { capabilities: serverCapabilities }),
    ...(instructions !== undefined && { instructions }),
    ...(protocolVersion !== undefined && { protocolVersion }),
    era: client.era,
  };
}

const IDLE: ConnectionState = Object.freeze({ status: 'idle' });
const READY: ConnectionState = Object.freeze({ status: 'ready' });
const CLOSED: ConnectionState = Object.freeze({ status: 'closed' });
const EMPTY: readonly never[] = Object.freeze([]);
