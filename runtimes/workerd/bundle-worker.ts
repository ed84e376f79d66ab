import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * Bundles the Worker whose main module is `entry` into the one ES module `outfile`, resolving its
 * imports the way `wrangler deploy` does: export conditions `workerd`, `worker` and `browser`, no
 * platform of esbuild's own. A package such as `@mcp/core` is found through the example's
 * node_modules and its `exports`, so the test runs what a user's project would deploy (the
 * packages' built `dist`: run `pnpm build` first).
 */
export async function bundleWorker(entry: URL | string, outfile: string): Promise<string> {
  const main = entry instanceof URL ? fileURLToPath(entry) : entry;
  try {
    await build({
      entryPoints: [main],
      outfile,
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      conditions: ['workerd', 'worker', 'browser'],
      // With no platform, esbuild reads no main field of a package without `exports`; wrangler reads these.
      mainFields: ['browser', 'module', 'main'],
      target: 'es2022',
      // No tsconfig.json of the repository's: packages/ai-sdk's maps `@mcp/core` to core's
      // sources, which would put a second copy of core in the bundle. A published package has none.
      tsconfigRaw: {},
      // A minified bundle starts in workerd in about half the time (worker-agent inlines ai and zod).
      minify: true,
      logLevel: 'silent',
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`bundling ${main} failed (is every package built? run \`pnpm build\`): ${reason}`, {
      cause: error,
    });
  }
  return outfile;
}
