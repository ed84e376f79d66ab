import type { AuthProvider } from '../auth-provider.js';

/** Supplies a bearer token; called for every request and every retry, possibly concurrently. */
export type TokenProvider = (context: { readonly signal: AbortSignal }) => string | Promise<string>;

/** When to send a request again after a failure (never after it may have run on the server). */
export interface RetryOptions {
  /** Retries after the first attempt; 0 (the default) never retries. */
  readonly maxRetries?: number;
  /** First backoff step in ms (default 250); doubles each attempt, with full jitter. */
  readonly baseDelay?: number;
  /** Cap for one backoff, and the longest `Retry-After` honoured, in ms (default 10000). */
  readonly maxDelay?: number;
}

/** How the standalone GET stream is reopened after it ends (2025-03-26 … 2025-11-25). */
export interface StreamReconnectOptions {
  /**
   * Shortest wait before reopening, in ms (default 1000), whatever `retry:` the
   * server sent: a server saying `retry: 0` and closing at once would otherwise
   * get a GET per millisecond. A longer `retry:` is honoured (up to 10 minutes).
   */
  readonly minDelay?: number;
  /**
   * Failed openings in a row after which the stream is given up for the
   * session (default 8), reported to `onError` as a LimitError caused by the
   * last failure. A stream that ends within 10 s without a single event counts
   * as failed, so a server that answers every GET with an empty stream is not
   * asked forever. Each failure waits
   * longer: `minDelay` (or a longer `retry:`) plus a random wait of up to
   * 250 ms × 2^n after the n-th failure in a row (up to 500 ms after the first,
   * 1 s after the second, …), that bound capped at 10 s (full jitter).
   */
  readonly maxFailures?: number;
}

/**
 * How a `StreamableHttpTransport` talks to its endpoint; every option has a
 * default. Two bounds are fixed, not options, and fail with a LimitError naming
 * them: 5 redirects per request (`maxRedirects`; the last redirect's HttpError
 * is the cause), and 5 resends of one request an `auth` provider may ask for
 * (`maxAuthRetries`; the refused response's HttpError is the cause).
 */
export interface StreamableHttpTransportOptions {
  /** Sent on every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Any fetch-compatible function; default `globalThis.fetch`, read at call time. */
  readonly fetch?: typeof fetch;
  /** A fresh token per request, sent as `Authorization: Bearer …` (or raw under `authHeader`); overrides a static Authorization header. */
  readonly tokenProvider?: TokenProvider;
  /** Send the token raw under this header instead of `Authorization`. */
  readonly authHeader?: string;
  /**
   * OAuth for servers that require it (MCP "Authorization"), usually an `OAuthProvider`:
   * the provider adds the token to every request and, on 401 or 403 `insufficient_scope`,
   * authorizes (or refreshes) and the request is sent again.
   */
  readonly auth?: AuthProvider;
  /** Retries after a network failure, a 429 or a 503 (off by default). */
  readonly retry?: RetryOptions;
  /**
   * Largest JSON body or SSE event data accepted, in bytes (default 64 MiB); a
   * larger one fails its call with a LimitError. An SSE line or event still
   * incomplete may buffer 64 KiB more (its field names, id and comments) before
   * the stream fails.
   */
  readonly maxMessageBytes?: number;
  /**
   * Allow the standalone GET stream for server-initiated messages (default true). It
   * opens only when the client has something to receive (handlers, `onNotification`,
   * `listen()`); `false` keeps it closed even then.
   */
  readonly standaloneStream?: boolean;
  /** Bounds on reopening the GET stream (defaults: 1 s apart at least, given up after 8 failures in a row). */
  readonly streamReconnect?: StreamReconnectOptions;
  /** Fall back to the 2024-11-05 HTTP+SSE transport when `initialize` is refused with 400/404/405 (default true). */
  readonly legacyFallback?: boolean;
  /** Times a broken POST stream is resumed with `Last-Event-ID` before the call fails with a LimitError (default 5). */
  readonly maxResumeAttempts?: number;
  /**
   * DELETE the session on close (default true). A stateless host that keeps the
   * session for a later invocation (`client.session` → `resume`) passes false.
   */
  readonly endSessionOnClose?: boolean;
  /** Timeout of the best-effort DELETE sent on close, in ms (default 5000). */
  readonly closeTimeout?: number;
}

/** `maxMessageBytes` unless given: 64 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** `closeTimeout` unless given, in ms. */
export const DEFAULT_CLOSE_TIMEOUT = 5000;
