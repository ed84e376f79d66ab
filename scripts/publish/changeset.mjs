#!/usr/bin/env node
// `pnpm changeset …`: runs the Changesets CLI, which needs Node ^22.11 || ^24 (it calls
// module.enableCompileCache), on this Node when it is new enough, else on the Node 24 the
// workspace brings (runtimes/node/package.json). The workspace itself stays on Node ≥ 20.19.
// A changeset it adds is then formatted as Biome wants Markdown, so `pnpm lint` stays clean.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { missingNodeBinary, nodeBinaryPath } from '../../runtimes/node/binaries.mjs';
import { repoRoot } from '../lib/repo-root.mjs';

const [major, minor] = process.versions.node.split('.').map(Number);
const newEnough = major === 22 ? minor >= 11 : major >= 24;
const missing = newEnough ? undefined : missingNodeBinary(24);
if (missing) {
  console.error(`changeset needs Node ^22.11 || >=24 and this is ${process.versions.node}; ${missing}`);
  process.exit(1);
}
const node = newEnough ? process.execPath : nodeBinaryPath(24);
const cli = createRequire(join(repoRoot, 'package.json')).resolve('@changesets/cli/bin.js');
const args = process.argv.slice(2);
const run = (command, commandArgs) => {
  const { status, error } = spawnSync(command, commandArgs, { stdio: 'inherit', cwd: repoRoot });
  if (error) throw error;
  return status ?? 1;
};
let status = run(node, [cli, ...args]);
const adds = args.length === 0 || args[0] === 'add';
if (status === 0 && adds) {
  status = run(join(repoRoot, 'node_modules/.bin/biome'), [
    'check',
    '--write',
    '--no-errors-on-unmatched',
    '.changeset',
  ]);
}
process.exitCode = status;
