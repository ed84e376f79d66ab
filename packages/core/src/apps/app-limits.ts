/** Default `limits.maxMessageBytes`: 1 MiB of JSON per message from a view. */
export const DEFAULT_MAX_VIEW_MESSAGE_BYTES = 1_048_576;
/** Default `limits.maxMessagesPerSecond`: room for a view's resize and tool traffic, not for a flood. */
export const DEFAULT_MAX_VIEW_MESSAGES_PER_SECOND = 100;
/** Default `limits.maxRequestsInFlight`: requests from a view the host is answering at once. */
export const DEFAULT_MAX_VIEW_REQUESTS_IN_FLIGHT = 16;
/** Default `limits.initializeTimeoutMs`: from mounting the sandbox to the view's `ui/notifications/initialized`. */
export const DEFAULT_VIEW_INITIALIZE_TIMEOUT = 15_000;
/** Default `limits.teardownTimeoutMs`: how long `teardown()` waits for the view's answer to `ui/resource-teardown`. */
export const DEFAULT_VIEW_TEARDOWN_TIMEOUT = 3_000;
/** Default `limits.maxWidth` and `limits.maxHeight`: the most pixels a view may grow to by `size-changed`. */
export const DEFAULT_MAX_VIEW_SIZE = 4_096;

/**
 * The bounds an `AppHost` holds a view to. A view that breaks one is torn down
 * with an `AppViewError` naming it; every default is a named export.
 */
export interface AppLimits {
  /** Largest message, in bytes of JSON (default {@link DEFAULT_MAX_VIEW_MESSAGE_BYTES}). */
  readonly maxMessageBytes?: number;
  /** Messages a view may send per second, in bursts up to the same number (default {@link DEFAULT_MAX_VIEW_MESSAGES_PER_SECOND}). */
  readonly maxMessagesPerSecond?: number;
  /** Unanswered requests from the view at once (default {@link DEFAULT_MAX_VIEW_REQUESTS_IN_FLIGHT}). */
  readonly maxRequestsInFlight?: number;
  /** Milliseconds for the sandbox and the view to come up (default {@link DEFAULT_VIEW_INITIALIZE_TIMEOUT}). */
  readonly initializeTimeoutMs?: number;
  /** Milliseconds `teardown()` waits for the view (default {@link DEFAULT_VIEW_TEARDOWN_TIMEOUT}). */
  readonly teardownTimeoutMs?: number;
  /** Widest the iframe grows, in CSS pixels, below any `containerDimensions.maxWidth` (default {@link DEFAULT_MAX_VIEW_SIZE}). */
  readonly maxWidth?: number;
  /** Tallest the iframe grows, in CSS pixels, below any `containerDimensions.maxHeight` (default {@link DEFAULT_MAX_VIEW_SIZE}). */
  readonly maxHeight?: number;
}

/** {@link AppLimits} with every default filled in. */
export type ResolvedAppLimits = { readonly [K in keyof AppLimits]-?: number };

/** The limits with defaults filled in; a value that is not a positive number takes the default. */
export function resolveAppLimits(limits: AppLimits = {}): ResolvedAppLimits {
  const pick = (value: number | undefined, fallback: number) =>
    value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
  return {
    maxMessageBytes: pick(limits.maxMessageBytes, DEFAULT_MAX_VIEW_MESSAGE_BYTES),
    maxMessagesPerSecond: pick(limits.maxMessagesPerSecond, DEFAULT_MAX_VIEW_MESSAGES_PER_SECOND),
    maxRequestsInFlight: pick(limits.maxRequestsInFlight, DEFAULT_MAX_VIEW_REQUESTS_IN_FLIGHT),
    initializeTimeoutMs: pick(limits.initializeTimeoutMs, DEFAULT_VIEW_INITIALIZE_TIMEOUT),
    teardownTimeoutMs: pick(limits.teardownTimeoutMs, DEFAULT_VIEW_TEARDOWN_TIMEOUT),
    maxWidth: pick(limits.maxWidth, DEFAULT_MAX_VIEW_SIZE),
    maxHeight: pick(limits.maxHeight, DEFAULT_MAX_VIEW_SIZE),
  };
}
