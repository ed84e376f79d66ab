/**
 * The entry esbuild bundles for the page: the shared Store contract over the stores `open` makes in the
 * page. See vitest-in-page.mjs.
 */
import { storeContract } from '../../packages/core/test/connections/store-contract.ts';
import { runCollected } from './vitest-in-page.mjs';

/** Runs the contract once against `open`, with the contract's `options`; resolves to each test's outcome. */
export function runStoreContract(name, open, options) {
  storeContract(name, open, options);
  return runCollected();
}
