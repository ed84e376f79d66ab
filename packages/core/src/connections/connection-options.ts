import type { OAuthOptions } from '../auth/options.js';
import type { ClientOptions } from '../client/options.js';
import type { StreamableHttpTransportOptions } from '../transport/http/options.js';
import type { AuthorizationGateOptions } from './authorization-gate.js';
import type { ConnectionEvent } from './connection-state.js';
import type { PendingQueueOptions } from './pending-queue.js';
import type { Store } from './store.js';

/** `ReconnectOptions.maxAttempts` unless given. */
export const DEFAULT_MAX_ATTEMPTS = 8;
/** `ReconnectOptions.maxElapsedMs` unless given: 5 minutes. */
export const DEFAULT_MAX_ELAPSED = 300_000;
/** `ReconnectOptions.baseDelayMs` unless given. */
export const DEFAULT_BASE_DELAY = 1000;
/** `ReconnectOptions.maxDelayMs` unless given. */
export const DEFAULT_MAX_DELAY = 30_000;
/** `ConnectionOptions.connectTimeout` unless given. */
export const DEFAULT_CONNECT_TIMEOUT = 30_000;
/** `HealthCheckOptions.intervalMs` unless given. */
export const DEFAULT_HEALTH_INTERVAL = 30_000;
/** `HealthCheckOptions.timeoutMs` unless given. */
export const DEFAULT_HEALTH_TIMEOUT = 10_000;
/** `ConnectionOptions.prefix` unless given. */
export const DEFAULT_PREFIX = 'mcp:';

/**
 * How a dropped connection is brought back. Attempts wait longer each time
 * (exponential, with jitter so many clients do not come back in step), and the
 * budget of attempts and time is reset only by progress: a request that
 * succeeded after the connection came back. A server that accepts the
 * connection and drops it again before answering anything uses the budget up.
 */
export interface ReconnectOptions {
  /** Attempts after a drop before the connection is `failed` (default 8; 0 never reconnects). */
  readonly maxAttempts?: number;
  /**
   * Time since the drop after which no new attempt starts, in ms (default
   * 300000: 5 minutes); the connection is `failed` then.
   */
  readonly maxElapsedMs?: number;
  /**
   * The wait before the first attempt, in ms (default 1000); it doubles with
   * each attempt. Each wait is random between half its step and the step.
   */
  readonly baseDelayMs?: number;
  /** The longest step between attempts, in ms (default 30000). */
  readonly maxDelayMs?: number;
}

/**
 * A ping at an interval while the connection is `ready` (`client.ping()`:
 * `ping` in the legacy era, `server/discover` in 2026-07-28). A ping that fails
 * or times out is a drop: the connection reconnects.
 */
export interface HealthCheckOptions {
  /** Time between the end of one ping and the next, in ms (default 30000). */
  readonly intervalMs?: number;
  /** How long one ping may take, in ms (default 10000). */
  readonly timeoutMs?: number;
}

/** Which lists a connection keeps current besides the tools. */
export interface ListOptions {
  /** Keep `snapshot.prompts` (default false). */
  readonly prompts?: boolean;
  /** Keep `snapshot.resources` (default false). */
  readonly resources?: boolean;
}

/** How a `Connection` connects, persists and recovers; every field is optional. */
export interface ConnectionOptions {
  /**
   * Options of each `Client` the connection makes. `resume` and `eraCache` are
   * the connection's own (from its store). Without `elicitation` and `sampling`
   * handlers here, those server requests wait in `snapshot.pending` for the UI.
   */
  readonly client?: Omit<ClientOptions, 'resume' | 'eraCache'>;
  /** Options of the Streamable HTTP transport made for a config's `url` (the config's `headers` and OAuth are added). */
  readonly http?: Omit<StreamableHttpTransportOptions, 'headers' | 'auth' | 'endSessionOnClose'>;
  /**
   * Options of the `OAuthProvider` made when the config says `oauth: true`. Its
   * store defaults to the connection's `store` under `<prefix>oauth:` (memory
   * without one), so tokens persist beside the session. `authorize` is the
   * app's handler (`popupAuthorize()`, …): the connection never calls it on its
   * own, only from `connection.authorize()`, which the app calls from a user
   * gesture. Meanwhile the connection waits in `authorizing`.
   */
  readonly oauth?: OAuthOptions;
  /**
   * How an authorization waits for the user (`AuthorizationGate`): `lock`, so
   * two tabs or instances never both run a flow for this server (`WebFlowLock`
   * in browsers), and `timeout` (default 10 minutes).
   */
  readonly authorization?: Omit<AuthorizationGateOptions, 'handler' | 'onChange'>;
  /**
   * Server requests waiting for the user (`snapshot.pending`): elicitation and
   * sampling, unless the app gave its own handler in `client` (default on,
   * `maxPending` 8). `false` declares neither capability, so servers send none.
   */
  readonly pending?: false | Omit<PendingQueueOptions, 'onChange' | 'onEvent'>;
  /**
   * Where the session snapshot (`<prefix>session:<name>`) and the era verdict
   * (`<prefix>era:<server>`) are kept, so a new page, Worker invocation or
   * process resumes the session with no handshake. Without it (and without
   * `sessionStore`) nothing persists.
   */
  readonly store?: Store;
  /**
   * Where the session snapshot is kept instead of `store` (default: `store`).
   * A session belongs to the one client that resumes it: two clients on one
   * session share its single stream of server messages, so one of them misses
   * the notifications, and ending it for one ends it for both. In a browser,
   * where `store` is shared by every tab of the origin, give each tab its own:
   * `new LocalStorageStore({ storage: sessionStorage, locks: false })`, which
   * a reload of the tab keeps.
   */
  readonly sessionStore?: Store;
  /** Prepended to every key the connection writes in `store` (default `mcp:`). */
  readonly prefix?: string;
  /** How a dropped connection is brought back; see {@link ReconnectOptions} for the defaults. */
  readonly reconnect?: ReconnectOptions;
  /**
   * Longest one connection attempt may take (handshake or resume, and the first
   * listing of tools), in ms (default 30000). While the attempt is
   * `authorizing` (waiting for the user) the clock stops; it starts again from
   * zero when the user is done.
   */
  readonly connectTimeout?: number;
  /** Ping the server at an interval while ready (off unless given). */
  readonly healthCheck?: HealthCheckOptions;
  /** Keep prompts and resources current too (tools always are). */
  readonly lists?: ListOptions;
  /** Hears every state change, list refresh, pending request and health check, for an app's log. */
  readonly onEvent?: (event: ConnectionEvent) => void;
  /** The source of the reconnect jitter, in [0, 1) (default `Math.random`); tests pin it. */
  readonly random?: () => number;
}

/** `value`, checked: a number from `min` up (Infinity when `infinite`), else a RangeError naming `option`. */
export function checkBound(option: string, value: number | undefined, fallback: number, infinite = false): number {
  if (value === undefined) return fallback;
  const ok = typeof value === 'number' && value >= 0 && (Number.isFinite(value) || (infinite && value === Infinity));
  if (!ok) throw new RangeError(`ConnectionOptions.${option} must be a number, 0 or more (got ${String(value)})`);
  return value;
}
