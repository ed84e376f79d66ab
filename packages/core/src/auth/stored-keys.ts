import * as v from 'valibot';
import { type OAuthStore, storeKeys } from './store.js';

const KeyListSchema = v.array(v.string());

/** The last change queued on each store's list, shared by every provider on it. */
const queues = new WeakMap<OAuthStore, Promise<unknown>>();

/**
 * The keys a provider wrote to its store (tokens, server bindings, pending
 * authorizations), listed in the store itself under `keys`: signOut after a
 * page reload, or in another provider on the same store, finds what an earlier
 * one stored. Registered clients are not listed: they outlive a sign-out.
 * Changes to the list run one at a time per store, whichever provider makes
 * them, so concurrent writes in this page lose no key; a store with `update`
 * makes each change inside it, so other tabs, invocations and processes
 * sharing the store lose none either.
 */
export class StoredKeys {
  readonly #store: OAuthStore;

  constructor(store: OAuthStore) {
    this.#store = store;
  }

  async list(): Promise<string[]> {
    const parsed = v.safeParse(KeyListSchema, await this.#store.get(storeKeys.index));
    return parsed.success ? parsed.output : [];
  }

  /** Writes `value` under `key` and lists the key. */
  async set(key: string, value: unknown): Promise<void> {
    await this.#store.set(key, value);
    await this.add(key);
  }

  /** Lists `key`, written by other means (a store update). */
  add(key: string): Promise<void> {
    return this.#change((keys) => (keys.includes(key) ? keys : [...keys, key]));
  }

  /** Deletes `keys` and takes them off the list. */
  async delete(...keys: string[]): Promise<void> {
    for (const key of keys) await this.#store.delete(key);
    await this.#change((listed) => listed.filter((key) => !keys.includes(key)));
  }

  #change(change: (keys: string[]) => string[]): Promise<void> {
    const store = this.#store;
    if (store.update) {
      return store
        .update(storeKeys.index, (current) => {
          const parsed = v.safeParse(KeyListSchema, current);
          return change(parsed.success ? parsed.output : []);
        })
        .then(() => undefined);
    }
    const next = (queues.get(this.#store) ?? Promise.resolve()).then(async () => {
      const keys = await this.list();
      const changed = change(keys);
      if (changed !== keys) await this.#store.set(storeKeys.index, changed);
    });
    queues.set(
      this.#store,
      next.catch(() => {}),
    );
    return next;
  }
}
