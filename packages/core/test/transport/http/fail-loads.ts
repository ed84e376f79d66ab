import { vi } from 'vitest';

/**
 * Makes imports of one of the on-demand modules (`module`, a path under `src/`
 * such as `transport/http/recovery/index.js`) fail, as a chunk download that
 * fails does in a browser, until `restore()`. Vitest wraps the error: a call's
 * error has it in its cause chain. Once a module has loaded, the next import
 * gets it from the cache, so a test file fails the loads of one module before
 * anything loads it.
 */
export function failLoadsOf(module: string): { failure: TypeError; restore: () => void } {
  const path = `../../../src/${module}`;
  const failure = new TypeError('Failed to fetch dynamically imported module');
  vi.doMock(path, () => {
    throw failure;
  });
  return { failure, restore: () => vi.doUnmock(path) };
}

/** `error`, its cause, their cause, and so on. */
export function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && chain.length < 10; current = (current as Error).cause) {
    chain.push(current);
  }
  return chain;
}
