#!/usr/bin/env node
// Version strings compiled into the packages (the `mcp --version` answer, the Client's default
// clientInfo) follow their package.json: `pnpm version-packages` runs this after `changeset
// version` bumps the manifests. With --check it changes nothing and exits 1 on any mismatch
// (the pack check runs it so).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../lib/repo-root.mjs';

/** Each constant: the package whose version it carries, its file, and the text around the version. */
const constants = [
  { pkg: 'node-stdio', file: 'src/cli/version.ts', pattern: /(export const VERSION = ')([^']*)(';)/ },
  {
    pkg: 'core',
    file: 'src/client/options.ts',
    pattern: /(DEFAULT_CLIENT_INFO: Implementation = \{ name: '@mcp\/core', version: ')([^']*)(' \})/,
  },
];

const check = process.argv.includes('--check');
let mismatches = 0;
for (const { pkg, file, pattern } of constants) {
  const dir = join(repoRoot, 'packages', pkg);
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const path = join(dir, file);
  const source = readFileSync(path, 'utf8');
  const found = pattern.exec(source);
  const where = `packages/${pkg}/${file}`;
  if (!found) throw new Error(`${where}: the version constant is not where sync-versions looks (${pattern})`);
  if (found[2] === version) continue;
  if (check) {
    console.error(`${where} says ${found[2]}, package.json ${version}`);
    mismatches += 1;
  } else {
    writeFileSync(path, source.replace(pattern, `$1${version}$3`));
    console.log(`${where}: ${found[2]} -> ${version}`);
  }
}
process.exitCode = mismatches > 0 ? 1 : 0;
