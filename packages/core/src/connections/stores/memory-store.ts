import type { Store } from '../store.js';
import { KeyQueue } from './key-queue.js';

/**
 * A store in this instance's memory: what a test, a script or one long-lived
 * process needs. `update` is atomic within the instance (every update of a key
 * waits for the one before it); nothing is shared with another process.
 */
export class MemoryStore implements Store {
  readonly #entries = new Map<string, unknown>();
  readonly #queue = new KeyQueue();

  /** A copy of the value under `key`, or undefined. */
  async get(key: string): Promise<unknown> {
    return structuredClone(this.#entries.get(key));
  }

  /** Stores a copy of `value` under `key`; undefined deletes it. */
  async set(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.#entries.delete(key);
    else this.#entries.set(key, structuredClone(value));
  }

  /** Removes `key`. */
  async delete(key: string): Promise<void> {
    this.#entries.delete(key);
  }

  /** Runs `change` on the value under `key` after every earlier update of `key`, and stores its result. */
  update<T>(key: string, change: (current: unknown) => T | Promise<T>): Promise<T> {
    return this.#queue.run(key, async () => {
      const next = await change(await this.get(key));
      await this.set(key, next);
      return next;
    });
  }
}
