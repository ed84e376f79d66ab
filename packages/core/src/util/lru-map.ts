/**
 * A `Map` that holds at most `limit` entries, forgetting the least recently used
 * first: what the client keeps per server, per result or per given-up call must
 * not grow with whatever a server (or the number of servers) sends. A read
 * (`get`) or a write counts as a use.
 */
export class LruMap<K, V> extends Map<K, V> {
  readonly #limit: number;

  constructor(limit: number) {
    super();
    this.#limit = Math.max(1, limit);
  }

  override get(key: K): V | undefined {
    const value = super.get(key);
    if (value !== undefined) {
      // Map keeps insertion order: moving the entry to the end marks it most recent.
      super.delete(key);
      super.set(key, value);
    }
    return value;
  }

  override set(key: K, value: V): this {
    super.delete(key);
    super.set(key, value);
    if (this.size > this.#limit) this.delete(this.keys().next().value as K);
    return this;
  }
}
