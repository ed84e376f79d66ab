import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoPath, requireBuilt } from './built-files.js';

/**
 * ofetch (OAuth's HTTP) is external in the published build and loads only with
 * the first OAuth request: no module a program loads up front imports it.
 */
const STATIC_OFETCH = /(?:^|\n)import[^;]*from\s*['"]ofetch['"]/;

function jsFiles(dir: string): string[] {
  return readdirSync(repoPath(dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js') && !file.startsWith('bundle/'))
    .map((file) => join(dir, file));
}

describe('ofetch loads only with OAuth', () => {
  it('the published build imports ofetch in one chunk, which only a dynamic import() reaches', () => {
    requireBuilt('packages/core/dist/index.js');
    const files = jsFiles('packages/core/dist');
    const importers = files.filter((file) => STATIC_OFETCH.test(readFileSync(repoPath(file), 'utf8')));
    expect(importers).toHaveLength(1);
    const chunk = (importers[0] as string).split('/').pop() as string;
    expect(chunk).toMatch(/^oauth-fetch-/);
    for (const file of files) {
      const text = readFileSync(repoPath(file), 'utf8');
      const staticImport = new RegExp(`(?:^|\\n)import[^;(]*['"]\\./(chunks/)?${chunk.replace('.', '\\.')}['"]`);
      expect(staticImport.test(text), `${file} imports ${chunk} statically`).toBe(false);
    }
    expect(files.some((file) => readFileSync(repoPath(file), 'utf8').includes(`import('./${chunk}')`))).toBe(true);
  });
});
