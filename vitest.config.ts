import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The checks of the built output (packages/*\/dist), apart so `--project` can pick or skip them. */
const build = [
  'packages/*/test/build/**/*.test.ts',
  'packages/ai-sdk/test/built-package.test.ts',
  'packages/ai-sdk/test/consumer-types.test.ts',
];
/** Thousands of calls through faulty servers. */
const soak = ['packages/*/test/soak/**/*.test.ts'];
/** Tests whose subject runs in processes of its own: the stdio CLI and bridge, the test servers, Node, the examples' Workers. */
const integration = [
  'packages/node-stdio/test/**/*.test.ts',
  'test-servers/test/**/*.test.ts',
  'runtimes/node/**/*.test.ts',
  'examples/*/test/**/*.test.ts',
];
/** The packages' own tests, in the test's process (against real servers over real sockets all the same). */
const unit = ['packages/*/test/**/*.test.ts'];
/**
 * @mcp/react's tests that run again under React 18 (the unit run has React 19, the package's own
 * devDependency): `react` and `react-dom` from packages/react/test/react18, a workspace of its own.
 */
const react18 = ['packages/react/test/server-rendering.test.ts'];
const react18Modules = src('./packages/react/test/react18/node_modules');

export default defineConfig({
  resolve: {
    // Unit and integration tests run against the sources; the built output has its own checks.
    alias: [
      { find: /^@mcp\/core\/protocol$/, replacement: src('./packages/core/src/protocol/index.ts') },
      { find: /^@mcp\/core\/connections$/, replacement: src('./packages/core/src/connections/index.ts') },
      { find: /^@mcp\/core\/apps$/, replacement: src('./packages/core/src/apps/index.ts') },
      { find: /^@mcp\/core\/transport$/, replacement: src('./packages/core/src/transport/index.ts') },
      { find: /^@mcp\/core$/, replacement: src('./packages/core/src/index.ts') },
      { find: /^@mcp\/node-stdio$/, replacement: src('./packages/node-stdio/src/index.ts') },
    ],
  },
  test: {
    setupFiles: [src('./scripts/test/settle-after-file.ts')],
    environment: 'node',
    pool: 'forks',
    // Two test files at once: vitest's default, one fewer than the cores, is 1 on a 2-core machine
    // and leaves a core idle. Four at once, beside npm test's other steps, starved the timing-bound
    // tests into failing (26 of 1977 on a loaded machine). `--maxWorkers N` overrides it.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // One run of every project (`--project unit` runs one); all share the settings above.
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: unit, exclude: [...configDefaults.exclude, ...build, ...soak, ...integration] },
      },
      { extends: true, test: { name: 'integration', include: integration } },
      {
        extends: true,
        resolve: {
          alias: [
            { find: /^react(\/.*)?$/, replacement: `${react18Modules}/react$1` },
            { find: /^react-dom(\/.*)?$/, replacement: `${react18Modules}/react-dom$1` },
          ],
        },
        test: { name: 'react18', include: react18, env: { MCP_REACT_MAJOR: '18' } },
      },
      { extends: true, test: { name: 'build', include: build } },
      { extends: true, test: { name: 'soak', include: soak } },
    ],
  },
});
