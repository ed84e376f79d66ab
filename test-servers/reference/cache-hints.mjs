/**
 * The cache hints the v2 reference server puts on its 2026-07-28 results
 * (`ttlMs`, `cacheScope`: 2026-07-28, CacheableResult). The SDK's own default
 * is `ttlMs: 0, cacheScope: 'private'`; these differ on purpose so a client's
 * cache has something to keep, and so each kind of freshness can be tested.
 */

const MINUTE = 60_000;

/** Per-method hints, given to the v2 `Server` as its `cacheHints` option. */
export const CACHE_HINTS = Object.freeze({
  'server/discover': { ttlMs: 5 * MINUTE, cacheScope: 'public' },
  'tools/list': { ttlMs: MINUTE, cacheScope: 'public' },
  'prompts/list': { ttlMs: MINUTE, cacheScope: 'public' },
  'resources/list': { ttlMs: MINUTE, cacheScope: 'public' },
  'resources/templates/list': { ttlMs: MINUTE, cacheScope: 'public' },
  'resources/read': { ttlMs: 0, cacheScope: 'private' },
});

/** A short TTL, so a test can watch a cached read go stale without a long sleep. */
export const SHORT_TTL_MS = 250;

/**
 * The hint of one `resources/read`: static texts are fresh for a minute,
 * template items for {@link SHORT_TTL_MS}, everything else (static binaries,
 * the multi-round-trip resource) is stale at once.
 * @param {string} uri
 * @returns {{ ttlMs: number, cacheScope: 'public' | 'private' }}
 */
export function readCacheHint(uri) {
  if (uri.startsWith('test://static/text/')) return { ttlMs: MINUTE, cacheScope: 'private' };
  if (uri.startsWith('test://template/')) return { ttlMs: SHORT_TTL_MS, cacheScope: 'private' };
  return { ttlMs: 0, cacheScope: 'private' };
}
