/**
 * Where a connection or a server set keeps what must outlive one page, one Worker
 * invocation or one process: the server configs, each session's snapshot, the era
 * verdicts and the OAuth state. Values are plain JSON.
 *
 * Every store here implements the whole contract; they differ in what `update`
 * guarantees across instances (see each store, and docs/guides/connections.md).
 */
export interface Store {
  /** The value stored under `key`, or undefined. */
  get(key: string): Promise<unknown>;
  /** Stores `value` (plain JSON) under `key`, replacing what was there; undefined deletes it. */
  set(key: string, value: unknown): Promise<void>;
  /** Removes `key`; a key that is not there is no error. */
  delete(key: string): Promise<void>;
  /**
   * Reads `key`, runs `change` on the value and stores what it returns (undefined
   * deletes the key), while no other `update` of `key` runs anywhere the store is
   * shared: another tab, another Worker invocation, another process. `change`
   * runs exactly once, so it may do what must happen once (refresh a token); it
   * resolves to what `change` returned. A store that cannot exclude other
   * instances says so with `atomic: false`.
   */
  update<T>(key: string, change: (current: unknown) => T | Promise<T>): Promise<T>;
  /**
   * False when `update` excludes only this instance's own updates (Workers KV,
   * which is eventually consistent): such a store is fit for server configs, not
   * for sessions or tokens. Absent means true.
   */
  readonly atomic?: boolean;
}
