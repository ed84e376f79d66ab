import { type BuildOptions, build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { repoPath, requireBuilt } from './built-files.js';
import { expectWebClean } from './web-clean.js';

/** Bundles `import * from '@mcp/core'` the way an app's bundler would, resolving the package's exports. */
async function bundleCore(options: BuildOptions) {
  requireBuilt('packages/core/dist/index.js');
  const result = await build({
    stdin: {
      contents: "export * from '@mcp/core';",
      resolveDir: repoPath('packages/core'),
      loader: 'js',
    },
    bundle: true,
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
    ...options,
  });
  const code = result.outputFiles?.[0]?.text ?? '';
  return { code, inputs: Object.keys(result.metafile?.inputs ?? {}), warnings: result.warnings };
}

describe('@mcp/core in web bundles', () => {
  it('bundles for the browser with no Node built-ins, polyfills, require or eval', async () => {
    const { code, inputs, warnings } = await bundleCore({ platform: 'browser' });
    expect(warnings).toEqual([]);
    expect(inputs.some((input) => input.includes('packages/core/dist/index.js'))).toBe(true);
    expect(inputs.filter((input) => input.includes('node-fetch-native'))).toEqual([]);
    expectWebClean(code);
  });

  it("bundles with workerd's export conditions the way wrangler resolves them", async () => {
    const { code, inputs, warnings } = await bundleCore({
      platform: 'neutral',
      conditions: ['workerd', 'worker', 'browser'],
      mainFields: ['browser', 'module', 'main'],
    });
    expect(warnings).toEqual([]);
    expect(inputs.some((input) => input.includes('packages/core/dist/index.js'))).toBe(true);
    expect(inputs.filter((input) => input.includes('node-fetch-native'))).toEqual([]);
    expectWebClean(code);
  });
});
