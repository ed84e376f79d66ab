import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import rootConfig from '../../../../vitest.config.js';

/**
 * @mcp/ai-sdk's loop tests again, against ai 7 (its own step in scripts/test/steps.mjs,
 * on Node 22, which ai 7 requires). The sources import `ai` from
 * packages/ai-sdk/node_modules, which is ai 6; here `ai` and `ai/test` are
 * this workspace's ai 7 instead. No test file lives in this folder, so the
 * main vitest run (Node 20, ai 6) picks up each test once.
 */
const ai7 = (path: string) => fileURLToPath(new URL(`./node_modules/ai/${path}`, import.meta.url));
const rootAliases = rootConfig.resolve?.alias;

export default defineConfig({
  resolve: {
    alias: [
      { find: /^ai$/, replacement: ai7('dist/index.js') },
      { find: /^ai\/test$/, replacement: ai7('dist/test/index.js') },
      ...(Array.isArray(rootAliases) ? rootAliases : []),
    ],
  },
  test: {
    root: fileURLToPath(new URL('../../../..', import.meta.url)),
    // The tests that run an AI SDK loop or read the tools `ai` makes (their description,
    // metadata, execute); the others (the naming rule alone, output mapping, the
    // published types under both majors) do not depend on which `ai` is loaded.
    include: [
      'packages/ai-sdk/test/mcp-tool-set.test.ts',
      'packages/ai-sdk/test/hostile-servers.test.ts',
      'packages/ai-sdk/test/servers-tool-set.test.ts',
      'packages/ai-sdk/test/built-package.test.ts',
    ],
    setupFiles: rootConfig.test?.setupFiles ?? [],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
