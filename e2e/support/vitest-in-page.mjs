/**
 * The part of vitest's API that packages/core/test/connections/store-contract.ts uses (`describe`, `it`,
 * `afterEach`, `expect`), for running that contract inside a Chromium page: esbuild bundles the contract
 * with `vitest` pointing here. `expect` is vitest's own (@vitest/expect on chai), so every assertion means
 * what it means in Node; the tests are collected, then `runCollected` runs them one after another.
 */
import {
  ASYMMETRIC_MATCHERS_OBJECT,
  chai,
  getState,
  JestAsymmetricMatchers,
  JestChaiExpect,
  JestExtend,
  setState,
} from '@vitest/expect';

chai.use(JestExtend);
chai.use(JestChaiExpect);
chai.use(JestAsymmetricMatchers);

/** vitest's `expect`, built as vitest builds it: chai's with the Jest matchers and the asymmetric ones. */
export const expect = (value, message) => chai.expect(value, message);
Object.assign(expect, chai.expect, globalThis[ASYMMETRIC_MATCHERS_OBJECT]);
expect.getState = () => getState(expect);
expect.setState = (state) => setState(state, expect);
setState(
  {
    assertionCalls: 0,
    isExpectingAssertions: false,
    isExpectingAssertionsError: null,
    expectedAssertionsNumber: null,
    expectedAssertionsNumberErrorGen: null,
  },
  expect,
);

const collected = [];
const afterEachHooks = [];
let scope = '';

/** Collects the tests `body` declares, their names prefixed with `name`. */
export function describe(name, body) {
  const outer = scope;
  scope = `${outer}${name} › `;
  body();
  scope = outer;
}

/** Collects one test. */
export function it(name, body) {
  collected.push({ name: scope + name, body });
}

/** Runs `hook` after each test. */
export function afterEach(hook) {
  afterEachHooks.push(hook);
}

/** Runs and forgets what was collected: each test's name, and its failure's stack when it failed. */
export async function runCollected() {
  const results = [];
  for (const { name, body } of collected.splice(0)) {
    let failure;
    try {
      await body();
    } catch (error) {
      failure = String(error?.stack ?? error);
    }
    for (const hook of afterEachHooks) await hook();
    results.push(failure === undefined ? { name } : { name, failure });
  }
  afterEachHooks.length = 0;
  return results;
}
