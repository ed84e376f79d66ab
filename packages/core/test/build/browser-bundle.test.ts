import { readFileSync } from 'node:fs';
import { type BuildOptions, build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { repoPath, requireBuilt } from './built-files.js';

/**
 * What a web or Workers bundle must never contain: Node built-ins, CommonJS
 * `require`, or code generation (blocked by CSP and by workerd). DESIGN: core
 * imports web standards only.
 */
function expectWebClean(code: string): void {
  expect(code).not.toMatch(/["']node:[\w/]+["']/);
  expect(code).not.toMatch(/\brequire\s*\(/);
  expect(code).not.toMatch(/\beval\s*\(/);
  expect(code).not.toMatch(/\bnew\s+Function\b/);
}

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

  it('ships dist/core.bundle.js self-contained and web-clean', () => {
    requireBuilt('packages/core/dist/core.bundle.js');
    const code = readFileSync(repoPath('packages/core/dist/core.bundle.js'), 'utf8');
    // No bare specifier left for a resolver: every dependency is inlined.
    expect(code).not.toMatch(/\b(?:from|import)\s*\(?\s*["'](?![./])[^"']+["']/);
    expectWebClean(code);
  });
});
