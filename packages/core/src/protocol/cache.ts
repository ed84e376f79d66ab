import * as v from 'valibot';

/** The two cache scopes of 2026-07-28 §Caching, analogous to HTTP `Cache-Control`. */
export const CACHE_SCOPES = ['public', 'private'] as const;

/**
 * `cacheScope`. A value we cannot read is taken as `"private"`: a hint must not
 * fail the call it rides on, and private is the reading that never leaks a
 * result across authorization contexts.
 */
export const CacheScopeSchema = v.pipe(
  v.unknown(),
  v.transform((scope): (typeof CACHE_SCOPES)[number] => (scope === 'public' ? 'public' : 'private')),
);
/** The output type of {@link CacheScopeSchema}: a value it parsed. */
export type CacheScope = v.InferOutput<typeof CacheScopeSchema>;

/**
 * The cache hints of a `CacheableResult` (2026-07-28 §Caching): `ttlMs` (ms the
 * result stays fresh) and `cacheScope`. Both are absent from legacy servers,
 * which a client treats as `ttlMs: 0`; a negative `ttlMs` is also read as 0,
 * so it is accepted here rather than rejected.
 */
export const cacheEntries = {
  ttlMs: v.optional(v.number()),
  cacheScope: v.optional(CacheScopeSchema),
};

/** Just the cache hints of a result, every other key kept. */
export const CacheHintsSchema = v.looseObject({ ...cacheEntries });
/** The output type of {@link CacheHintsSchema}: a value it parsed. */
export type CacheHints = v.InferOutput<typeof CacheHintsSchema>;

/**
 * The longest a cached result stays fresh, in ms (1 hour), whatever `ttlMs` says.
 * The spec sets no ceiling: without one a server's `ttlMs: 1e308` would keep a
 * result for the life of the process, stale however the data changes where no
 * change notification reaches the client.
 */
export const MAX_CACHE_TTL_MS = 3_600_000;

/**
 * How long a result stays fresh, in ms (2026-07-28 §Caching): absent, negative
 * or not a finite number means 0, and no longer than {@link MAX_CACHE_TTL_MS}.
 */
export function freshnessMs(hints: { readonly ttlMs?: number | undefined }): number {
  const ttl = hints.ttlMs ?? 0;
  return Number.isFinite(ttl) && ttl > 0 ? Math.min(ttl, MAX_CACHE_TTL_MS) : 0;
}
