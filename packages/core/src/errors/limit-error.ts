import { McpError } from './mcp-error.js';

/**
 * A bound the client enforces was reached: a body, an event or a message too
 * large, too many pages, input rounds, input requests, queued events or busy
 * handlers. `limit` names the option that sets it (`limits.maxPages`,
 * `maxMessageBytes`, …) and `value` is its value, so the fix — a larger limit or
 * a word with the server's author — is one look away. A few bounds are fixed,
 * not options; `limit` names them all the same: `maxRedirects` (5 per request),
 * `maxAuthRetries` (5 resends an AuthProvider may ask for), `maxListenReopens`
 * (5 reopens of a broken 2026-07-28 `listen()` stream). Time bounds keep the
 * platform's `TimeoutError` (a `DOMException`, as `AbortSignal.timeout` throws).
 */
export class LimitError extends McpError {
  override name = 'LimitError';
  /** The option that sets the bound, as a caller writes it (`limits.maxPages`, `maxMessageBytes`), or a fixed bound's name (`maxRedirects`). */
  readonly limit: string;
  /** The bound in force. */
  readonly value: number;

  /** `limit` names the option as a caller writes it, `value` its value. */
  constructor(limit: string, value: number, message: string, options?: ErrorOptions) {
    super(`${message} (${limit}: ${value})`, options);
    this.limit = limit;
    this.value = value;
  }
}
