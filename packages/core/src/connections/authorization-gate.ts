import { type AuthorizeHandler, DEFAULT_PENDING_TTL_MS } from '../auth/options.js';
import { AuthError } from '../errors/auth-error.js';
import { timerDelay } from '../util/timers.js';
import type { FlowLock } from './flow-lock.js';

/**
 * How long a parked authorization waits for the user unless told otherwise, in
 * ms: 10 minutes, the OAuthProvider's default `limits.pendingTtl`, after which
 * its PKCE record has expired and no callback could complete it anyway.
 */
export const DEFAULT_AUTHORIZATION_TIMEOUT = DEFAULT_PENDING_TTL_MS;

/**
 * How long the flow lock stays held after the callback arrived, unless `done()`
 * lets it go sooner, in ms: the provider redeems the code and stores the tokens
 * meanwhile, and other tabs must not retry before that.
 */
export const DEFAULT_FINISH_TIMEOUT = 60_000;

/**
 * What a UI shows for an authorization waiting for the user: the URL (a button
 * that calls `authorize()`, or a plain link once `popupBlocked`), or that
 * another tab or instance runs the flow for this server (`elsewhere`).
 */
export type AuthorizationGateState =
  | {
      /** Where the user signs in: for the app's `authorize()` handler, or a plain link. */
      readonly authorizationUrl: URL;
      /** The popup was blocked: show `authorizationUrl` as a link the user follows. */
      readonly popupBlocked?: true;
    }
  | {
      /** Another tab or instance runs the flow for this server; this one waits for its tokens. */
      readonly elsewhere: true;
    };

/** Options of {@link AuthorizationGate}. */
export interface AuthorizationGateOptions {
  /**
   * The app's way to show the URL (`popupAuthorize()`, `redirectAuthorize()`,
   * a system browser). Called only from `authorize()`, synchronously.
   */
  readonly handler: AuthorizeHandler;
  /** Called after `state` changed. It must not throw. */
  readonly onChange: () => void;
  /** Keeps two tabs or instances from both running a flow for one server; without it each runs its own. */
  readonly lock?: FlowLock;
  /**
   * What the lock is taken for (default: the `resource` the authorization URL
   * names, the MCP server per RFC 8707, else the authorization endpoint).
   */
  readonly lockKey?: string;
  /**
   * How long a parked authorization waits, whether for the user or for another
   * tab's flow, in ms (default {@link DEFAULT_AUTHORIZATION_TIMEOUT}, 10 minutes);
   * then the provider's wait fails with `AuthError('authorization_abandoned')`.
   */
  readonly timeout?: number;
  /** How long the lock stays held after the callback if `done()` is not called, in ms (default {@link DEFAULT_FINISH_TIMEOUT}, 60 s). */
  readonly finishTimeout?: number;
}

/** The authorization the provider is waiting on. */
interface Flow {
  readonly url: URL;
  readonly resolve: (callback: string | URL) => void;
  readonly reject: (error: unknown) => void;
  /** Ends a wait for another holder's release. */
  readonly stop: AbortController;
  readonly timer: ReturnType<typeof setTimeout>;
  /** The app's handler, while it runs. */
  running?: Promise<void> | undefined;
}

/**
 * Authorization without surprises. Give `gate.handler` to the `OAuthProvider`
 * as `authorize`: when the provider needs the user, the gate parks the request
 * and shows the URL in `state`, opening nothing. The app calls `authorize()`
 * from a click, which calls its own handler at once in the click's call stack
 * (browsers allow popups only there). A blocked popup leaves the URL for a
 * plain link, whose callback page hands its URL to `complete()`. With a `lock`,
 * only one tab or instance shows a URL for a server; the others show
 * `elsewhere`, and when that flow ends their request fails with
 * `AuthError('authorized_elsewhere')`, to be retried with the stored tokens.
 */
export class AuthorizationGate {
  readonly #app: AuthorizeHandler;
  readonly #onChange: () => void;
  readonly #lock: FlowLock | undefined;
  readonly #lockKey: string | undefined;
  readonly #timeout: number;
  readonly #finishTimeout: number;
  #flow: Flow | undefined;
  #state: AuthorizationGateState | undefined;
  /** The lock, while this gate holds it: from showing a URL until `done()` after the callback. */
  #release: (() => void) | undefined;
  #finishTimer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  /** For `OAuthOptions.authorize`: parks the provider's request until the user acts. */
  readonly handler: AuthorizeHandler;

  /** A gate with nothing waiting. */
  constructor(options: AuthorizationGateOptions) {
    this.#app = options.handler;
    this.#onChange = options.onChange;
    this.#lock = options.lock;
    this.#lockKey = options.lockKey;
    this.#timeout = timerDelay(options.timeout, { fallback: DEFAULT_AUTHORIZATION_TIMEOUT });
    this.#finishTimeout = timerDelay(options.finishTimeout, { fallback: DEFAULT_FINISH_TIMEOUT });
    this.handler = (authorizationUrl) => this.#park(authorizationUrl);
  }

  /** What is waiting for the user, or undefined: the same object until it changes. */
  get state(): AuthorizationGateState | undefined {
    return this.#state;
  }

  /**
   * Runs the app's handler with the waiting URL, synchronously, before this
   * returns: call it from the user's click. Its callback URL completes the
   * provider's wait. A popup that was blocked (`AuthError('popup_blocked')`)
   * sets `popupBlocked`; a window the user closed (`authorization_abandoned`)
   * leaves the URL waiting for another try; any other failure ends the wait
   * with it. Resolves when the handler settled; never rejects (the outcome is
   * in `state`). Does nothing when no URL is shown, or while the handler runs.
   */
  authorize(): Promise<void> {
    const flow = this.#flow;
    if (!flow || !this.#state || !('authorizationUrl' in this.#state)) return Promise.resolve();
    if (flow.running) return flow.running;
    let result: Promise<string | URL>;
    try {
      result = Promise.resolve(this.#app(flow.url));
    } catch (error) {
      result = Promise.reject(error);
    }
    const running = result.then(
      (callback) => this.#end(flow, { callback }),
      (error: unknown) => this.#failed(flow, error),
    );
    flow.running = running;
    return running.finally(() => {
      flow.running = undefined;
    });
  }

  /**
   * Completes the waiting authorization with the URL its callback page was
   * opened with (the link path, once the callback page hands its URL over):
   * true when that was this flow's response (its `state` matches). False when
   * nothing here waits for it, as on the page a full-page redirect came back
   * to: finish that one with the provider's `finishAuthorization`.
   */
  complete(callbackUrl: string | URL): boolean {
    const flow = this.#flow;
    if (!flow || !URL.canParse(callbackUrl)) return false;
    const state = new URL(callbackUrl).searchParams.get('state');
    if (state === null || state !== flow.url.searchParams.get('state')) return false;
    this.#end(flow, { callback: callbackUrl });
    return true;
  }

  /**
   * The request the authorization was for has ended (the tokens are stored, or
   * it failed): lets the lock go, so waiting tabs retry now rather than after
   * `finishTimeout`. Call it whenever a connection attempt ends; it does
   * nothing when the gate holds no lock.
   */
  done(): void {
    clearTimeout(this.#finishTimer);
    this.#finishTimer = undefined;
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }

  /** Gives up the waiting authorization: the provider's wait fails with `AuthError('authorization_abandoned')`. */
  cancel(): void {
    const flow = this.#flow;
    if (flow) {
      this.#end(flow, { error: new AuthError('authorization_abandoned', 'the authorization was cancelled') });
    }
  }

  /** Cancels what waits, lets the lock go, and fails every later request with `authorization_abandoned`. */
  close(): void {
    this.#closed = true;
    const flow = this.#flow;
    if (flow) this.#end(flow, { error: closed() });
    this.done();
  }

  #park(url: URL): Promise<string | URL> {
    if (this.#closed) return Promise.reject(closed());
    // The provider runs one flow per server: a newer request replaces an older one still parked.
    const older = this.#flow;
    if (older) {
      this.#end(older, { error: new AuthError('authorization_abandoned', 'a newer authorization replaced this one') });
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          this.#end(flow, {
            error: new AuthError('authorization_abandoned', `nobody authorized within ${this.#timeout} ms`),
          }),
        this.#timeout,
      );
      const flow: Flow = { url, resolve, reject, stop: new AbortController(), timer };
      this.#flow = flow;
      void this.#take(flow);
    });
  }

  /** Takes the lock for `flow` and shows its URL, or shows `elsewhere` and waits for the holder. */
  async #take(flow: Flow): Promise<void> {
    const lock = this.#lock;
    // A gate that already holds the lock (a step-up right after a flow) shows the URL at once.
    if (!lock || this.#release) return this.#show(flow, { authorizationUrl: flow.url });
    const key = this.#lockKey ?? flow.url.searchParams.get('resource') ?? flow.url.origin + flow.url.pathname;
    let turn: Awaited<ReturnType<FlowLock['acquire']>>;
    try {
      turn = await lock.acquire(key, flow.stop.signal);
    } catch {
      // A lock that cannot be had (Web Locks refused here) must not strand the user: run without it.
      return this.#show(flow, { authorizationUrl: flow.url });
    }
    if (this.#flow !== flow) {
      if (turn.held) turn.release();
      return;
    }
    if (turn.held) {
      this.#release = turn.release;
      return this.#show(flow, { authorizationUrl: flow.url });
    }
    this.#show(flow, { elsewhere: true });
    try {
      await turn.released;
    } catch {
      return; // The flow ended first (cancel, close, the timeout): nothing to wait for.
    }
    this.#end(flow, {
      error: new AuthError(
        'authorized_elsewhere',
        'another tab or instance ran the authorization for this server; retry to use the tokens it stored',
      ),
    });
  }

  #show(flow: Flow, state: AuthorizationGateState): void {
    if (this.#flow !== flow) return;
    this.#state = state;
    this.#onChange();
  }

  /** The app's handler failed: a blocked or closed popup leaves the URL waiting; anything else ends the flow. */
  #failed(flow: Flow, error: unknown): void {
    if (error instanceof AuthError && error.code === 'popup_blocked') {
      this.#show(flow, { authorizationUrl: flow.url, popupBlocked: true });
    } else if (error instanceof AuthError && error.code === 'authorization_abandoned') {
      this.#show(flow, { authorizationUrl: flow.url });
    } else {
      this.#end(flow, { error });
    }
  }

  /**
   * Settles the provider's wait, once. A callback keeps the lock until `done()`
   * or `finishTimeout`, while the provider stores the tokens; a failure lets it go.
   */
  #end(flow: Flow, outcome: { readonly callback: string | URL } | { readonly error: unknown }): void {
    if (this.#flow !== flow) return;
    this.#flow = undefined;
    clearTimeout(flow.timer);
    flow.stop.abort();
    if ('callback' in outcome) {
      flow.resolve(outcome.callback);
      if (this.#release) {
        clearTimeout(this.#finishTimer);
        this.#finishTimer = setTimeout(() => this.done(), this.#finishTimeout);
      }
    } else {
      flow.reject(outcome.error);
      this.done();
    }
    if (this.#state !== undefined) {
      this.#state = undefined;
      this.#onChange();
    }
  }
}

const closed = (): AuthError => new AuthError('authorization_abandoned', 'the connection closed');
