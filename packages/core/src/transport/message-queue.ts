/**
 * An unbounded single-consumer async queue: producers `push` without waiting (a
 * read loop must never block on its consumer), the consumer iterates. `end()`
 * finishes the iteration after what is queued; `fail(error)` ends it with a throw.
 * Exported for transport authors.
 */
export class MessageQueue<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #head = 0;
  #waiter: ((result: IteratorResult<T>) => void) | undefined;
  #failWaiter: ((error: unknown) => void) | undefined;
  #ended = false;
  #error: { error: unknown } | undefined;
  #iterated = false;

  /** True once `end()` or `fail()` was called. */
  get closed(): boolean {
    return this.#ended;
  }

  push(item: T): void {
    if (this.#ended) return;
    const waiter = this.#waiter;
    if (waiter) {
      this.#waiter = this.#failWaiter = undefined;
      waiter({ value: item, done: false });
    } else {
      this.#items.push(item);
    }
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#wake();
  }

  fail(error: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#error = { error };
    this.#wake();
  }

  #wake(): void {
    const waiter = this.#waiter;
    const failWaiter = this.#failWaiter;
    this.#waiter = this.#failWaiter = undefined;
    if (!waiter) return;
    if (this.#error && failWaiter) failWaiter(this.#error.error);
    else waiter({ value: undefined, done: true });
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
    if (this.#ended) {
      if (this.#error) return Promise.reject(this.#error.error);
      return Promise.resolve({ value: undefined, done: true });
    }
    return new Promise((resolve, reject) => {
      this.#waiter = resolve;
      this.#failWaiter = reject;
    });
  }

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
