import { freshnessMs } from '../protocol/cache.js';
import { LruMap } from '../util/lru-map.js';

interface Entry {
  readonly value: unknown;
  readonly expires: number;
  /** Set for `private` results: only the same credentials may see them. */
  readonly credential: string | undefined;
}

/** What each list_changed notification makes stale. */
const INVALIDATES: Readonly<Record<string, readonly string[]>> = {
  'notifications/tools/list_changed': ['tools/list'],
  'notifications/prompts/list_changed': ['prompts/list'],
  'notifications/resources/list_changed': ['resources/list', 'resources/templates/list'],
};

/**
 * Results kept while their `ttlMs` says they are fresh (an hour at most,
 * `MAX_CACHE_TTL_MS`), keyed by method and
 * params (each page of a list on its own). Absent or non-positive TTLs — every
 * legacy server — are not kept. `private` entries are served only to the same
 * credentials. Change notifications drop what they make stale. At most
 * `maxEntries` are kept (limits.maxCacheEntries); past it the least recently
 * used goes first, so a server handing out long TTLs cannot grow it without end.
 */
export class ResultCache {
  readonly #entries: LruMap<string, Entry>;
  readonly #now: () => number;

  constructor(maxEntries: number, now: () => number = Date.now) {
    this.#entries = new LruMap(maxEntries);
    this.#now = now;
  }

  /** A fresh entry; `credential` is asked only for a `private` one. */
  async get(
    key: string,
    credential: () => Promise<string | undefined> | undefined,
  ): Promise<{ readonly value: unknown } | undefined> {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.#now()) {
      this.#entries.delete(key);
      return undefined;
    }
    if (entry.credential !== undefined && entry.credential !== ((await credential()) ?? '')) return undefined;
    return { value: entry.value };
  }

  /**
   * Keeps `value` while the `ttlMs` of `hints` says (`hints`: its raw result, a JSON
   * object, as the channel checked it); a private one only for `credential`.
   */
  set(key: string, value: unknown, hints: unknown, credential: string | undefined): void {
    const { ttlMs, cacheScope } = hints as { readonly ttlMs?: unknown; readonly cacheScope?: unknown };
    const ttl = freshnessMs({ ttlMs: typeof ttlMs === 'number' ? ttlMs : undefined });
    if (ttl === 0) return;
    // An unreadable scope is private: that reading never leaks across credentials.
    const shared = cacheScope === 'public';
    this.#entries.set(key, { value, expires: this.#now() + ttl, credential: shared ? undefined : (credential ?? '') });
  }

  /** Drops every cached page of the list `method` (its cursors may be stale: 2026-07-28 caching). */
  forget(method: string): void {
    for (const key of this.#entries.keys()) if (key.startsWith(`${method} `)) this.#entries.delete(key);
  }

  /** Drops what a server notification makes stale. */
  invalidate(method: string, params: Readonly<Record<string, unknown>> | undefined): void {
    for (const list of INVALIDATES[method] ?? []) this.forget(list);
    if (method === 'notifications/resources/updated' && typeof params?.uri === 'string') {
      const prefix = `resources/read ${JSON.stringify({ uri: params.uri }).slice(0, -1)}`;
      for (const key of this.#entries.keys()) if (key.startsWith(prefix)) this.#entries.delete(key);
    }
  }

  clear(): void {
    this.#entries.clear();
  }
}
