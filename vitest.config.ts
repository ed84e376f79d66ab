import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // Unit and integration tests run against the sources; the built output has its own checks.
    alias: [
      { find: /^@mcp\/core\/protocol$/, replacement: src('./packages/core/src/protocol/index.ts') },
      { find: /^@mcp\/core\/transport$/, replacement: src('./packages/core/src/transport/index.ts') },
      { find: /^@mcp\/core$/, replacement: src('./packages/core/src/index.ts') },
      { find: /^@mcp\/node-stdio$/, replacement: src('./packages/node-stdio/src/index.ts') },
    ],
  },
  test: {
    include: [
      'packages/*/test/**/*.test.ts',
      'test-servers/test/**/*.test.ts',
      'runtimes/node/**/*.test.ts',
      'examples/*/test/**/*.test.ts',
    ],
    setupFiles: [src('./scripts/test/settle-after-file.ts')],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
