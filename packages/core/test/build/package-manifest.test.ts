import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { repoPath, requireBuilt } from './built-files.js';

interface Manifest {
  name: string;
  sideEffects?: unknown;
  files?: unknown;
  engines?: { node?: string };
  exports: Record<string, string | Record<string, string>>;
  bin?: Record<string, string>;
}

const manifest = (pkg: string): Manifest => JSON.parse(readFileSync(repoPath(`packages/${pkg}/package.json`), 'utf8'));

describe.each(['core', 'node-stdio'])('packages/%s/package.json', (pkg) => {
  const json = manifest(pkg);

  it('publishes only dist, is free of side effects and needs Node 20.19 (require of ESM)', () => {
    expect(json.sideEffects).toBe(false);
    expect(json.files).toEqual(['dist']);
    expect(json.engines?.node).toBe('>=20.19');
  });

  it('lists types first in every export condition map, and every target exists after the build', () => {
    for (const [subpath, target] of Object.entries(json.exports)) {
      if (typeof target === 'string') {
        expect(existsSync(repoPath(`packages/${pkg}/${target}`)), `${subpath} -> ${target}`).toBe(true);
        continue;
      }
      expect(Object.keys(target)[0], `exports["${subpath}"]`).toBe('types');
      const files = Object.values(target).map((file) => `packages/${pkg}/${file.replace(/^\.\//, '')}`);
      requireBuilt(...files);
    }
  });
});

describe('built entry points', () => {
  it('core has JS and declarations for "." and "./protocol", plus the self-contained bundle', () => {
    requireBuilt(
      'packages/core/dist/index.js',
      'packages/core/dist/index.d.ts',
      'packages/core/dist/protocol.js',
      'packages/core/dist/protocol.d.ts',
      'packages/core/dist/core.bundle.js',
    );
  });

  it('node-stdio ships the mcp command with a node shebang', () => {
    const json = manifest('node-stdio');
    expect(json.bin).toEqual({ mcp: './dist/cli.js' });
    requireBuilt(
      'packages/node-stdio/dist/index.js',
      'packages/node-stdio/dist/index.d.ts',
      'packages/node-stdio/dist/cli.js',
    );
    const cli = readFileSync(repoPath('packages/node-stdio/dist/cli.js'), 'utf8');
    expect(cli.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(cli.indexOf('#!', 1)).toBe(-1);
  });

  it('declarations export the public names', () => {
    requireBuilt('packages/core/dist/index.d.ts', 'packages/node-stdio/dist/index.d.ts');
    const core = readFileSync(repoPath('packages/core/dist/index.d.ts'), 'utf8');
    const stdio = readFileSync(repoPath('packages/node-stdio/dist/index.d.ts'), 'utf8');
    expect(core).toMatch(/\bClient\b/);
    expect(core).toMatch(/\bMemoryTransport\b/);
    expect(stdio).toMatch(/\bStdioTransport\b/);
  });
});
