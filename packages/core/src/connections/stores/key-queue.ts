/**
 * Runs tasks one key at a time, in the order they were queued: what a store's
 * `update` needs within one instance. Keys are independent; a task that fails
 * does not stop the ones behind it.
 */
export class KeyQueue {
  /** Per key, what the next task waits for: every task queued so far has settled or given up its turn. */
  readonly #tails = new Map<string, Promise<void>>();

  /**
   * Runs `task` once every task queued before it for `key` has settled, and
   * resolves to what it resolved to. When `signal` aborts before the turn comes,
   * `task` never runs, the result rejects with the signal's reason, and the
   * tasks behind it no longer wait for this one.
   */
  run<T>(key: string, task: () => T | Promise<T>, signal?: AbortSignal): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release = () => {};
    const finished = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => finished);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return turn(previous, signal).then(
      async () => {
        try {
          return await task();
        } finally {
          release();
        }
      },
      (reason: unknown) => {
        release();
        throw reason;
      },
    );
  }
}

/** Resolves when `previous` has, or rejects with the reason `signal` aborts with first. */
function turn(previous: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return previous;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    void previous.then(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    });
  });
}
