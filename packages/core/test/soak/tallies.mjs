/**
 * Counting and printing what a soak tallies: active handles by type
 * (`process.getActiveResourcesInfo()`) and counts by kind.
 */

/**
 * How many of each of `types` are active now.
 * @param {readonly string[]} types
 * @returns {Record<string, number>}
 */
export function activeResources(types) {
  /** @type {Record<string, number>} */
  const counts = Object.fromEntries(types.map((type) => [type, 0]));
  for (const type of process.getActiveResourcesInfo()) if (type in counts) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

/**
 * Handle types there are more of after than before. Only growth is a leak: the
 * test runner's own timers and pipes may end during a run.
 * @param {Record<string, [number, number]>} resources before and after, by type
 * @param {string} [prefix]
 */
export function grownResources(resources, prefix = '') {
  return Object.entries(resources)
    .filter(([, [before, after]]) => after > before)
    .map(([type, [before, after]]) => `${prefix}${type}: ${before} before, ${after} after`);
}

/** `a 1, b 2`, sorted by kind; `none` when empty. @param {Record<string, number>} counts */
export function formatCounts(counts) {
  return (
    Object.entries(counts)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ') || 'none'
  );
}

/** `Timeout 1→0, …`. @param {Record<string, [number, number]>} resources */
export function formatResources(resources) {
  return Object.entries(resources)
    .map(([type, [before, after]]) => `${type} ${before}→${after}`)
    .join(', ');
}
