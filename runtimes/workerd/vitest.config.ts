import { defineConfig } from 'vitest/config';

/**
 * The workerd runner (its own step in scripts/test/steps.mjs): vitest on the Node
 * side starts the HTTP servers and miniflare; the scenarios run inside workerd.
 */
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['runtimes/workerd/**/*.test.ts'],
    setupFiles: ['scripts/test/settle-after-file.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
