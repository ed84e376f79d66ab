import type { ClientCapabilities } from '../protocol/capabilities.js';
import type { ElicitRequestParams, ElicitResult } from '../protocol/elicitation.js';
import type { Implementation } from '../protocol/implementation.js';
import type { LoggingLevel } from '../protocol/logging.js';
import type { Root } from '../protocol/roots.js';
import type { CreateMessageRequestParams, CreateMessageResult } from '../protocol/sampling.js';
import type { TaskReference } from '../protocol/tasks.js';
import type { SessionSnapshot } from './session-snapshot.js';

/** What a handler of a server request is given besides the request itself. */
export interface HandlerContext {
  /**
   * Fires when the client closes or the server cancels the request — and, for a
   * 2026-07-28 input request, when the call it belongs to is aborted or times out: stop work then.
   */
  readonly signal: AbortSignal;
  /**
   * For a URL-mode elicitation that carries an `elicitationId` (2025-11-25):
   * settles when the server sends `notifications/elicitation/complete` for it,
   * telling that the user finished the flow at the URL. A server need not send
   * it, so it may never settle: race it with the user's own "done" and `signal`.
   */
  readonly completed?: Promise<void>;
  /**
   * Set when the elicitation comes from a request the server refused with
   * -32042 (URL elicitation required, 2025-11-25): that request's method
   * (`tools/call`, …). It is sent once more when the handler resolves `accept`,
   * so resolve after the user is done — `await completed`, or the user's own
   * "done" — rather than at consent, as a server's own URL-mode request wants.
   */
  readonly refusedRequest?: string;
}

/** Runs an LLM completion the server asked for (`sampling/createMessage`). */
export type SamplingHandler = (
  request: CreateMessageRequestParams,
  context: HandlerContext,
) => CreateMessageResult | Promise<CreateMessageResult>;

/** A sampling handler plus what it can do; a bare function samples without tools. */
export interface SamplingOptions {
  /** Writes the message the server asks the client's model for. */
  readonly handler: SamplingHandler;
  /**
   * The handler can offer the model tools (2025-11-25 on): the client declares
   * `sampling.tools`, and requests carrying `tools` or `toolChoice` reach the
   * handler. Without it such a request is answered -32602 and never reaches it.
   */
  readonly tools?: boolean;
}

/** Asks the user for input the server needs (`elicitation/create`). */
export type ElicitationHandler = (
  request: ElicitRequestParams,
  context: HandlerContext,
) => ElicitResult | Promise<ElicitResult>;

/** An elicitation handler plus what it can do; a bare function handles form mode only. */
export interface ElicitationOptions {
  /** Asks the user and returns the answer. */
  readonly handler: ElicitationHandler;
  /**
   * The handler can send the user to a URL (URL mode, 2025-11-25 on): it gets
   * the server's URL-mode `elicitation/create` requests, and the elicitations of
   * a request refused with -32042 (URL elicitation required), one at a time; when
   * it accepted every one, the refused request is sent once more, else it
   * rejects with `UrlElicitationRequiredError`. For those the handler's context
   * has `refusedRequest`: resolve once the user is done (`context.completed`
   * settles when the server says so), since the retry goes out then. Only
   * `https:` URLs, or `http:` to this machine, reach it; others are declined
   * for the app, with `onWarning`.
   */
  readonly url?: boolean;
}

/**
 * Filesystem roots the client exposes; a function is asked each time the server
 * lists them, with the request's context (its `signal` fires when the server
 * cancels the request or the client closes).
 */
export type RootsOption = readonly Root[] | ((context: HandlerContext) => readonly Root[] | Promise<readonly Root[]>);

/**
 * Called for each server notification, with its raw params. An async handler
 * holds its dispatch slot until its promise settles, so at most
 * `limits.maxConcurrentHandlers` run at once; a throw or rejection goes to `onError`.
 * A union rather than `=> void | Promise<void>`, so a sync handler that happens
 * to return a value (`(method) => seen.push(method)`) still type-checks.
 */
export type NotificationHandler =
  | ((method: string, params: Readonly<Record<string, unknown>> | undefined) => void)
  | ((method: string, params: Readonly<Record<string, unknown>> | undefined) => Promise<void>);

/**
 * Bounds that keep a misbehaving server from exhausting the client. Each, when
 * hit, fails only what it bounds, with a `LimitError` naming the option
 * (`limits.maxPages`, …) and its value; time bounds are `TimeoutError`s. One is
 * fixed, not an option: a 2026-07-28 `listen()` stream that breaks is reopened
 * 5 times at most, then the subscription ends with a LimitError naming
 * `maxListenReopens`, the last failure as cause.
 */
export interface ClientLimits {
  /** Pages a `list*` method follows before it fails (default 1000). */
  readonly maxPages?: number;
  /**
   * Items one `list*` call gathers over all its pages before it fails
   * (default 10000), counted as the server sent them.
   */
  readonly maxListItems?: number;
  /**
   * Characters of JSON text one `list*` call reads over all its pages before
   * it fails, close to their bytes (default 16777216: 16 MiB). One page is
   * bounded by the transport's `maxMessageBytes` (64 MiB), so without this a
   * list of `maxPages` pages could reach 64 GiB. 16 MiB leaves 1.6 KiB for
   * each of `maxListItems` items, room for a tool with a full input and output
   * schema. The transport reports each answer's length, so
   * counting costs nothing (a custom transport that reports none is bounded by
   * `maxListItems` alone); a page the TTL cache serves counts none.
   */
  readonly maxListBytes?: number;
  /**
   * Server requests and notifications handled at once; beyond it requests are
   * refused (the server gets an error) and notifications dropped (`onError` gets
   * the `LimitError`), default 16. 2026-07-28 input requests share these slots,
   * and wait for one instead.
   */
  readonly maxConcurrentHandlers?: number;
  /** How long `close()` waits for in-flight handlers, in ms (default 2000). */
  readonly closeGrace?: number;
  /** Rounds of server input requests (MRTR) one request may take (default 10). */
  readonly maxInputRounds?: number;
  /**
   * Input requests one MRTR round may carry (default 16). A round with more
   * fails the call before any handler runs; those within it are answered at
   * most `maxConcurrentHandlers` at a time.
   */
  readonly maxInputRequests?: number;
  /** How long `connect()` waits for the 2026-07-28 probe before taking the server as legacy, in ms (default 5000). */
  readonly probeTimeout?: number;
  /**
   * Subschemas of one tool's input schema the `x-mcp-header` check visits
   * (default 10000); a tool whose schema has more is left out of `listTools()`
   * with `onWarning`, so no schema can make listing slow. It also bounds an
   * output schema twice: its objects and arrays (it may nest at most 128 deep, a
   * fixed bound), and its expanded size, the subschemas one validation visits
   * for one value with each `$ref` followed (a `$ref` reached twice counts
   * twice, so `$ref`s fanning out through `allOf` or `anyOf` multiply; one back
   * into itself, a recursive schema, counts once). One past either, or a `$ref`
   * loop that never descends into the value, is not used, with `onWarning`, and
   * that tool's results pass unchecked. Each validation's work is bounded by
   * `maxValidationSteps`.
   */
  readonly maxSchemaNodes?: number;
  /**
   * Steps one validation of a tool's `structuredContent` against its
   * `outputSchema` may take (default 500000): a step is one subschema applied
   * to one part of the value, one member of an object listed by a subschema
   * applied to it, or one pair of items `uniqueItems` compares. Past
   * it the call rejects with `OutputValidationError`, a `LimitError` its cause
   * (the tool ran: `error.result` holds its unchecked result). The validator is
   * synchronous, so no schema and value may hold the program for long; an
   * ordinary result takes a few steps per part. A schema whose `pattern` repeats
   * a group holding an unbounded quantifier (`(a+)+`), which no step count can
   * stop, is not used at all (`onWarning`).
   */
  readonly maxValidationSteps?: number;
  /**
   * Results kept by the 2026-07-28 TTL cache (default 256); past it the least
   * recently used is dropped, whatever TTLs the server hands out.
   */
  readonly maxCacheEntries?: number;
  /**
   * Events one `listen()` subscription holds unread (default 1000); `Infinity`
   * means no bound. Past it new events are dropped, and `onError` hears of it,
   * so a server flooding a subscription its reader does not keep up with cannot
   * grow memory without end.
   */
  readonly maxQueuedEvents?: number;
}

/** Which protocol era a server speaks: 2026-07-28 (`modern`) or the handshake revisions (`legacy`). */
export type EraKind = 'legacy' | 'modern';

/**
 * Where a client remembers which era each server speaks, keyed by the
 * transport's `serverKey` (the HTTP endpoint, a stdio command line), so the
 * next `connect()` to it skips the 2026-07-28 probe. A `Map` fits; by default
 * clients share one that keeps the 256 servers used most recently. A stdio key
 * holds the command's environment: an app that stores the cache stores that too.
 */
export interface EraCache {
  /** The era last seen at `serverKey`, or undefined to probe. */
  get(serverKey: string): EraKind | undefined;
  /** Remembers the era `serverKey` spoke. */
  set(serverKey: string, era: EraKind): void;
}

/** How a `Client` talks to its server: who it is, the handlers it answers with, its bounds. */
export interface ClientOptions {
  /** Who the client is; sent in `initialize` (default: `{ name: '@mcp/core', version }`). */
  readonly clientInfo?: Implementation;
  /** Answers the server's requests for the client's model (`sampling/createMessage`); declares `sampling`. */
  readonly sampling?: SamplingHandler | SamplingOptions;
  /** Answers the server's questions for the user (`elicitation/create`); declares `elicitation`. */
  readonly elicitation?: ElicitationHandler | ElicitationOptions;
  /** The client's roots (`file://` URIs), or a function returning them; declares `roots`. */
  readonly roots?: RootsOption;
  /** Hears every notification the server sends, by method. */
  readonly onNotification?: NotificationHandler;
  /** Stray or unparsable messages that belong to no call, and dropped notifications, are reported here. */
  readonly onError?: (error: Error) => void;
  /**
   * Things the client worked around, e.g. a tool left out of `listTools()` for
   * invalid `x-mcp-header` annotations, or an `outputSchema` it cannot validate against.
   */
  readonly onWarning?: (message: string) => void;
  /** Pin one protocol version instead of negotiating. */
  readonly protocolVersion?: string;
  /**
   * Default per-request timeout in ms (default 60000); progress restarts it. It
   * also bounds a renewal of an expired session as a whole (handshake and
   * re-subscriptions), and a call's wait for one unless the call has its own.
   */
  readonly requestTimeout?: number;
  /**
   * A hard cap in ms on every call, which progress does not extend (default
   * 600000); a call's own `maxTotalTimeout` overrides it, and 0 or `Infinity`
   * means none. Without one, a server that reports progress forever holds a
   * call forever: implementations SHOULD enforce a maximum timeout whatever the
   * progress (2025-03-26 on, basic/lifecycle, Timeouts).
   */
  readonly maxTotalTimeout?: number;
  /** Capabilities to declare on top of those derived from the handlers (`experimental`, `extensions`). */
  readonly capabilities?: Pick<ClientCapabilities, 'experimental' | 'extensions'>;
  /** Bounds on what a server can make the client do; each has a default. */
  readonly limits?: ClientLimits;
  /** Continue a session from `client.session` of an earlier client: `connect()` then skips the handshake. */
  readonly resume?: SessionSnapshot;
  /**
   * Where this client remembers which era each server speaks, so a later
   * `connect()` to the same server skips the 2026-07-28 probe. Default: one cache
   * shared by every client not given its own, bounded to the 256 servers used
   * most recently. Give a `new Map()` to keep a client's verdicts to itself (a
   * test, a server whose era may change), or a store of your own to keep them
   * across processes.
   */
  readonly eraCache?: EraCache;
}

/** Progress the server reported for a call. */
export interface Progress {
  /** How far along, in the server's unit; it only grows. */
  readonly progress: number;
  /** The value `progress` reaches at the end, when known. */
  readonly total?: number;
  /** A status line from the server. */
  readonly message?: string;
}

/** Options every request method takes. */
export interface CallOptions {
  /** Aborts the call: it rejects with the signal's reason and is cancelled on the wire. */
  readonly signal?: AbortSignal;
  /** Timeout in ms for this call; each progress notification restarts it. */
  readonly timeout?: number;
  /** A hard cap in ms that progress does not extend (default: the client's `maxTotalTimeout`; 0 or `Infinity`: none). */
  readonly maxTotalTimeout?: number;
  /** Asks the server for progress and receives every `notifications/progress` of this call. */
  readonly onProgress?: (progress: Progress) => void;
  /** Serve a fresh cached result (2026-07-28 `ttlMs`) instead of asking the server (default true). */
  readonly cache?: boolean;
  /** Log messages wanted for this call (2026-07-28 `_meta` logLevel; the legacy era uses `setLoggingLevel`). */
  readonly logLevel?: LoggingLevel;
}

/** Options of `callTool`: those of every call, and what only a tool call has. */
export interface CallToolOptions extends CallOptions {
  /**
   * Sent as the request's `params._meta`, for keys the server or a tool reads
   * (a trace id, say). The keys the client sets itself win over these. The
   * client's `progressToken` is its own, so one in `meta` is never sent; ask
   * for progress with `onProgress`. In 2026-07-28 the client stamps every
   * request with its protocol version, capabilities and info, and the log level
   * when one is set: these replace the same `io.modelcontextprotocol/` keys here.
   */
  readonly meta?: Readonly<Record<string, unknown>>;
  /**
   * Check the result against the `outputSchema` the tool listed (default
   * true). A tool this client listed with an `outputSchema` must return
   * `structuredContent` that validates, unless `isError`; else the call
   * rejects with `OutputValidationError` (2025-06-18 on: clients SHOULD
   * validate). A tool never listed is not checked. The validator loads at the
   * first such call; an `outputSchema` it cannot use (unsupported dialect,
   * malformed, a `$ref` it would have to fetch, past `limits.maxSchemaNodes`) is
   * reported once to `onWarning` and that tool's results pass unchecked. `false`
   * skips the check, e.g. for an app that validates `structuredContent` itself.
   * Per call only: an app's other calls keep the check.
   */
  readonly validateOutput?: boolean;
  /**
   * Call a tool a 2025-11-25 server lists with `execution.taskSupport:
   * "optional"` as a task (one it lists as `"required"` always is). A
   * 2026-07-28 server decides itself.
   */
  readonly task?: boolean;
  /**
   * Each new status of the task the server ran the call as (both revisions;
   * `client.tasks.result()` takes it too). Its `statusMessage` also goes to `onProgress`. Aborting the call, or a
   * bound passing, cancels the task (`tasks/cancel`).
   */
  readonly onTaskStatus?: (task: TaskReference) => void;
}

/** Who the client says it is when `clientInfo` is not given. */
export const DEFAULT_CLIENT_INFO: Implementation = { name: '@mcp/core', version: '0.1.0' };
export const DEFAULT_REQUEST_TIMEOUT = 60_000;
export const DEFAULT_MAX_TOTAL_TIMEOUT = 600_000;
export const DEFAULT_MAX_PAGES = 1000;
export const DEFAULT_MAX_LIST_ITEMS = 10_000;
export const DEFAULT_MAX_LIST_BYTES = 16 * 1024 * 1024;
export const DEFAULT_MAX_CONCURRENT_HANDLERS = 16;
export const DEFAULT_CLOSE_GRACE = 2000;
export const DEFAULT_MAX_INPUT_ROUNDS = 10;
export const DEFAULT_MAX_INPUT_REQUESTS = 16;
export const DEFAULT_PROBE_TIMEOUT = 5000;
export const DEFAULT_MAX_SCHEMA_NODES = 10_000;
export const DEFAULT_MAX_VALIDATION_STEPS = 500_000;
export const DEFAULT_MAX_CACHE_ENTRIES = 256;
export const DEFAULT_MAX_QUEUED_EVENTS = 1000;
/** How many servers the shared era cache remembers, the most recently used kept. */
export const DEFAULT_ERA_CACHE_ENTRIES = 256;
