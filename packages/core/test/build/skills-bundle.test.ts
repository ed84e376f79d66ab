import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { repoPath, requireBuilt } from './built-files.js';

/** Bundles a program that uses `@mcp/core` and `@mcp/core/skills` as an app's bundler would. */
async function bundle(contents: string, conditions: string[]) {
  requireBuilt('packages/core/dist/index.js', 'packages/core/dist/skills.js');
  const result = await build({
    stdin: { contents, resolveDir: repoPath('packages/core'), loader: 'js' },
    bundle: true,
    format: 'esm',
    minify: true,
    write: false,
    logLevel: 'silent',
    platform: 'neutral',
    conditions,
    mainFields: ['browser', 'module', 'main'],
  });
  return { code: result.outputFiles?.[0]?.text ?? '', warnings: result.warnings };
}

describe('@mcp/core/skills in web bundles', () => {
  it.each([
    ['a browser', ['browser']],
    ['workerd', ['workerd', 'worker', 'browser']],
  ])(
    'bundles for %s with web standards only (Web Crypto, no Node built-ins, no YAML dependency)',
    async (_, conditions) => {
      const { code, warnings } = await bundle(
        "export { listSkills, loadSkill, parseSkillMarkdown } from '@mcp/core/skills';",
        conditions,
      );
      expect(warnings).toEqual([]);
      expect(code).toContain('crypto.subtle');
      expect(code).not.toMatch(/["']node:[\w/]+["']|\brequire\s*\(|\beval\s*\(/);
    },
  );

  it('leaves the main entry alone: a program without skills carries none of their code', async () => {
    const { code } = await bundle("export { Client } from '@mcp/core';", ['browser']);
    expect(code).not.toContain('skills/list');
    expect(code).not.toContain('frontmatter');
  });
});
