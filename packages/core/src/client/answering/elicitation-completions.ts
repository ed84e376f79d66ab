/** One elicitation being waited on: its promise, what settles it, and how many handlers hold it. */
interface Waiting {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
  holders: number;
}

/**
 * The `notifications/elicitation/complete` a URL-mode handler may wait for
 * (2025-11-25 client/elicitation § Completion Notifications): the server tells
 * the client that the out-of-band flow of an `elicitationId` has ended. Only
 * ids a handler is running for are kept, so a server naming unknown or finished
 * ids (which the client must ignore) can make nothing grow: the map holds at
 * most one entry per running handler, bounded by `limits.maxConcurrentHandlers`.
 */
export class ElicitationCompletions {
  readonly #waiting = new Map<string, Waiting>();

  /**
   * Runs `work` with a promise that settles when the server says `id` is
   * complete; it never settles if the server does not say so. Handlers running
   * for the same id share one promise.
   */
  async during<T>(id: string, work: (completed: Promise<void>) => Promise<T>): Promise<T> {
    let waiting = this.#waiting.get(id);
    if (!waiting) {
      let resolve!: () => void;
      const promise = new Promise<void>((settle) => {
        resolve = settle;
      });
      waiting = { promise, resolve, holders: 0 };
      this.#waiting.set(id, waiting);
    }
    waiting.holders++;
    try {
      return await work(waiting.promise);
    } finally {
      if (--waiting.holders === 0 && this.#waiting.get(id) === waiting) this.#waiting.delete(id);
    }
  }

  /** A `notifications/elicitation/complete`'s params: settles the wait for its id; anything else is ignored. */
  complete(params: Readonly<Record<string, unknown>> | undefined): void {
    const id = params?.elicitationId;
    if (typeof id !== 'string') return;
    const waiting = this.#waiting.get(id);
    if (!waiting) return;
    this.#waiting.delete(id);
    waiting.resolve();
  }
}
