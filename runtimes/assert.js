/* @ts-self-types="./assert.d.ts" */
/**
 * The tiny assertion helper the shared scenarios use. It needs nothing but the
 * language, so the same checks run in Node, Chromium, workerd, Deno and Bun
 * (`node:assert` is not in browsers, and workerd has it only behind a flag).
 * Every failure throws an `AssertionError` whose message says what differed.
 */

/** Thrown when a scenario's expectation does not hold. */
export class AssertionError extends Error {
  name = 'AssertionError';
}

/** A stable text form of JSON-like values: object keys sorted, so key order never matters. */
function canonical(value) {
  return JSON.stringify(value, (_key, inner) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

const show = (value) => (typeof value === 'string' ? JSON.stringify(value) : (canonical(value) ?? String(value)));

/** The helper passed to every scenario as its third argument. */
export const assert = {
  /** Fails unless `condition` is truthy. */
  ok(condition, message) {
    if (!condition) throw new AssertionError(message);
  },

  /** Fails unless `actual === expected`. */
  equal(actual, expected, message) {
    if (actual !== expected) {
      throw new AssertionError(`${message}: expected ${show(expected)}, got ${show(actual)}`);
    }
  },

  /** Fails unless both JSON-like values have the same content (key order ignored). */
  deepEqual(actual, expected, message) {
    if (canonical(actual) !== canonical(expected)) {
      throw new AssertionError(`${message}: expected ${show(expected)}, got ${show(actual)}`);
    }
  },

  /** Awaits `promise`, fails if it resolves, and returns what it rejected with. */
  async rejects(promise, message) {
    try {
      await promise;
    } catch (error) {
      return error;
    }
    throw new AssertionError(`${message}: expected a rejection, but it resolved`);
  },
};
