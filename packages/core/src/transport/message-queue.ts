/**
 * An unbounded single-consumer async queue: producers `push` without waiting (a
 * read loop must never block on its consumer), the consumer iterates. `end()`
 * finishes the iteration after what is queued; `fail(error)` ends it with a throw.
 * Exported for transport authors.
 */
export class MessageQueue<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #head = 0;
  /** Settles the consumer's pending `next()`, with an item or with how the queue ended. */
  #waiter: ((result: IteratorResult<T> | Promise<IteratorResult<T>>) => void) | undefined;
  #ended = false;
  #error: { error: unknown } | undefined;
  #iterated = false;

  /** True once `end()` or `fail()` was called. */
  get closed(): boolean {
    return this.#ended;
  }

  /** Queues `item` for the consumer, never waiting; dropped once the queue ended. */
  push(item: T): void {
    if (this.#ended) return;
    const waiter = this.#waiter;
    if (waiter) {
      this.#waiter = undefined;
      waiter({ value: item, done: false });
    } else {
      this.#items.push(item);
    }
  }

  /**
   * The next queued item, taken without waiting, or undefined when none is
   * queued. For a consumer that, woken for one item, handles at once what came
   * with it (a chunk that held many messages) instead of one `next()` per item.
   */
  poll(): T | undefined {
    if (this.#head < this.#items.length) {
      const value = this.#items[this.#head] as T;
      this.#items[this.#head++] = undefined as T;
      return value;
    }
    // Drained: start over, so a queue polled empty again and again keeps no growing array.
    if (this.#head > 0) {
      this.#items = [];
      this.#head = 0;
    }
    return undefined;
  }

  /** Ends the iteration after what is queued (a transport closed, or its peer closed cleanly). Idempotent. */
  end(): void {
    this.#finish(undefined);
  }

  /** Ends the iteration, after what is queued, by throwing `error` (the connection died). */
  fail(error: unknown): void {
    this.#finish({ error });
  }

  #finish(error: { error: unknown } | undefined): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#error = error;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    // Nothing is queued while a consumer waits: it gets the end (or the error).
    waiter?.(this.#next());
  }

  #next(): Promise<IteratorResult<T>> {
    if (this.#head < this.#items.length) {
      const value = this.#items[this.#head] as T;
      this.#items[this.#head++] = undefined as T;
      // Compact now and then so a long-lived queue does not keep a growing array.
      if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
        this.#items = this.#items.slice(this.#head);
        this.#head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.#error) return Promise.reject(this.#error.error);
    if (this.#ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.#waiter = resolve;
    });
  }

  /** The one consumer's iterator; a second call throws. Breaking out of the loop ends the queue. */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.#iterated) throw new Error('MessageQueue can be iterated only once');
    this.#iterated = true;
    return {
      next: () => this.#next(),
      return: () => {
        this.end();
        this.#items = [];
        this.#head = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
