/**
 * A map that holds at most `limit` entries, forgetting the least recently used
 * first: what the client keeps per server or per result must not grow with
 * whatever a server (or the number of servers) sends. A read counts as a use.
 */
export class LruMap<K, V> {
  readonly #entries = new Map<K, V>();
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = Math.max(1, limit);
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      // Map keeps insertion order: moving the entry to the end marks it most recent.
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.#limit) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  keys(): K[] {
    return [...this.#entries.keys()];
  }

  clear(): void {
    this.#entries.clear();
  }
}
