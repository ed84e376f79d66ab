/**
 * An in-memory `EventStore` for the SDK's Streamable HTTP server transport, so a
 * client that lost an SSE stream can resume it with `Last-Event-ID`
 * (2025-11-25, basic/transports § Resumability and Redelivery).
 *
 * Our own rather than the SDK example's: that one splits ids on `_` (which the
 * SDK's standalone stream id `_GET_stream` contains) and orders events by a
 * millisecond clock. Here an event id is `<streamId>::<sequence>`, so it names
 * its stream and sorts by arrival.
 */
export class MemoryEventStore {
  /** @type {Map<string, { id: string, message: object }[]>} events of each stream, in order */
  #streams = new Map();
  /** @type {Map<string, string>} event id → stream id */
  #owners = new Map();
  #sequence = 0;

  /**
   * @param {string} streamId
   * @param {object} message
   * @returns {Promise<string>} the new event's id
   */
  async storeEvent(streamId, message) {
    this.#sequence += 1;
    const id = `${streamId}::${this.#sequence}`;
    const events = this.#streams.get(streamId) ?? [];
    events.push({ id, message });
    this.#streams.set(streamId, events);
    this.#owners.set(id, streamId);
    return id;
  }

  /**
   * @param {string} eventId
   * @returns {Promise<string | undefined>} the stream the event was sent on
   */
  async getStreamIdForEventId(eventId) {
    return this.#owners.get(eventId);
  }

  /**
   * Sends every event of the stream that came after `lastEventId`. Priming
   * events (stored as `{}`, sent with empty data) are skipped: replaying one
   * would hand the client a `data: {}` that is not JSON-RPC.
   * @param {string} lastEventId
   * @param {{ send: (eventId: string, message: object) => Promise<void> }} sink
   * @returns {Promise<string>} the stream id
   */
  async replayEventsAfter(lastEventId, { send }) {
    const streamId = this.#owners.get(lastEventId);
    if (streamId === undefined) throw new Error(`Unknown event id: ${lastEventId}`);
    const events = this.#streams.get(streamId) ?? [];
    const start = events.findIndex((event) => event.id === lastEventId) + 1;
    for (const event of events.slice(start)) {
      if (Object.keys(event.message).length > 0) await send(event.id, event.message);
    }
    return streamId;
  }
}
