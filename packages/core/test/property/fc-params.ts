import type { Parameters } from 'fast-check';

/** The seed `npm test` uses, so a run is reproducible; `FC_SEED` picks another. */
const DEFAULT_SEED = 20_261_201;

/**
 * fast-check parameters for one property: a fixed seed and `runs` cases by
 * default (a few seconds for every property together), `FC_NUM_RUNS` and
 * `FC_SEED` to search harder or elsewhere, e.g. `FC_NUM_RUNS=20000 pnpm exec vitest run …`.
 * A failure prints the seed and path that replay it.
 */
export function fcParams<T>(runs: number): Parameters<T> {
  const env = process.env;
  const numRuns = Number(env.FC_NUM_RUNS ?? '') || runs;
  const seed = env.FC_SEED === undefined ? DEFAULT_SEED : Number(env.FC_SEED);
  return { numRuns, seed, endOnFailure: true };
}
