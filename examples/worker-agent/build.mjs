#!/usr/bin/env node
// Bundles the Worker into one ES module, as `wrangler deploy` would: `ai`,
// `@ai-sdk/openai-compatible`, `@mcp/ai-sdk` and `@mcp/core` (their built
// `dist`, so run `pnpm build` first) all inlined.
//
//   node examples/worker-agent/build.mjs [outfile]   (default examples/worker-agent/dist/worker.js)
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/**
 * @param {string} [outfile]
 * @param {string} [entry] the module to bundle (default worker.js; the tests wrap it)
 * @returns {Promise<string>} the outfile
 */
export async function buildWorker(outfile = here('./dist/worker.js'), entry = here('./worker.js')) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    // The export conditions wrangler resolves with.
    conditions: ['workerd', 'worker', 'browser'],
    target: 'es2022',
    // About 1.3 MB unminified (ai and zod); minified, workerd starts it in half the time.
    minify: true,
    logLevel: 'warning',
  });
  return outfile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${await buildWorker(process.argv[2])}\n`);
}
