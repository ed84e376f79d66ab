import type { Transport, TransportEvent } from '../transport/transport.js';

/**
 * `transport` as it is, except that the end of its inbound stream is told to
 * `onEnd`: undefined when it ended cleanly (the server closed it, or the client
 * did), the error when it broke. A Client learns of a dead connection only at its
 * next call; a connection must learn of it at once, to reconnect.
 *
 * A Proxy rather than a wrapper class, so every optional hook the transport has
 * (`sessionId`, `serverKey`, `sessionStarted`, …) reaches the Client unchanged;
 * members are read and called on the transport itself, whose private fields a
 * Proxy receiver could not reach.
 */
export function watchedTransport(transport: Transport, onEnd: (error: Error | undefined) => void): Transport {
  const messages = () => watch(transport.messages(), onEnd);
  return new Proxy(transport, {
    get(target, key) {
      if (key === 'messages') return messages;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function* watch(
  events: AsyncIterable<TransportEvent>,
  onEnd: (error: Error | undefined) => void,
): AsyncGenerator<TransportEvent> {
  try {
    yield* events;
  } catch (error) {
    onEnd(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
  onEnd(undefined);
}
