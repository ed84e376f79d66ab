import { HttpError } from '../errors/http-error.js';
import { LimitError } from '../errors/limit-error.js';
import type { Transport, TransportEvent } from '../transport/transport.js';

/** What a connection hears of its transport besides the messages. */
export interface TransportWatch {
  /**
   * The inbound stream ended: undefined when it ended cleanly (the server
   * closed it, or the client did), the error when it broke.
   */
  readonly ended: (error: Error | undefined) => void;
  /**
   * The session's own stream from the server (the Streamable HTTP GET stream)
   * is given up while the transport lives on: `spent` when its reopening
   * failed `streamReconnect.maxFailures` times in a row (the way to the server
   * is gone), not when the server refused it for good (an HTTP error).
   */
  readonly streamLost: (error: Error, spent: boolean) => void;
}

/**
 * `transport` as it is, except that the connection hears what a Client learns
 * only at its next call: the end of the inbound stream, and the loss of the
 * session's GET stream, which the transport reports as an `error` event for no
 * call (a `LimitError` naming `streamReconnect.maxFailures`, or the `HttpError`
 * that refused it). The events still reach the Client as they are.
 *
 * A Proxy rather than a wrapper class, so every optional hook the transport has
 * (`sessionId`, `serverKey`, `sessionStarted`, …) reaches the Client unchanged;
 * members are read and called on the transport itself, whose private fields a
 * Proxy receiver could not reach.
 */
export function watchedTransport(transport: Transport, watch: TransportWatch): Transport {
  const messages = () => watched(transport.messages(), watch);
  return new Proxy(transport, {
    get(target, key) {
      if (key === 'messages') return messages;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function* watched(events: AsyncIterable<TransportEvent>, watch: TransportWatch): AsyncGenerator<TransportEvent> {
  try {
    for await (const event of events) {
      if (event.type === 'error' && event.requestId === undefined) {
        const { error } = event;
        if (error instanceof LimitError && error.limit === 'streamReconnect.maxFailures') watch.streamLost(error, true);
        else if (error instanceof HttpError) watch.streamLost(error, false);
      }
      yield event;
    }
  } catch (error) {
    watch.ended(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
  watch.ended(undefined);
}
