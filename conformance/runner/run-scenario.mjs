/**
 * Runs one scenario through the harness in a process group of its own, under a
 * watchdog: the harness's timeout kills only the shell it started, so a hung
 * client (or harness) is ended here by killing the whole group.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UNHANDLED_MARK } from '../client/unhandled.mjs';
import { HARNESS_CLI, node22, scenarioArgs } from './harness.mjs';

/** The command the harness runs, with the server URL appended (another client can be swapped in). */
export const CLIENT_COMMAND = process.env.CONFORMANCE_CLIENT_COMMAND || 'pnpm --silent run conformance-client';
/** The harness's per-scenario client timeout, in ms. */
const CLIENT_TIMEOUT_MS = Number(process.env.CONFORMANCE_TIMEOUT_MS) || 30_000;
/** The whole harness run of one scenario, beyond which its process group is killed. */
const WATCHDOG_MS = CLIENT_TIMEOUT_MS + 15_000;

/**
 * @typedef {object} Check
 * @property {string} id
 * @property {string} status  SUCCESS, FAILURE, WARNING, INFO or SKIPPED
 * @property {string} [description]
 * @property {string} [errorMessage]
 */

/**
 * @typedef {object} ScenarioRun
 * @property {Check[]} checks  empty when the harness wrote none
 * @property {number} ms
 * @property {boolean} killed  the watchdog ended it
 * @property {string} output   the harness's stdout and stderr, for diagnosis
 * @property {string[]} unhandled  the client's reports of a rejection it left unhandled or an exception it did not catch
 */

/** Kills a process group, if any of it is left. */
function killGroup(/** @type {number | undefined} */ pid) {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * Runs `scenario` of `set`, writing the harness's results under `dir`.
 * @returns {Promise<ScenarioRun>}
 */
export function runScenario(/** @type {string} */ set, /** @type {string} */ scenario, /** @type {string} */ dir) {
  const started = performance.now();
  const args = [
    HARNESS_CLI,
    'client',
    '--command',
    CLIENT_COMMAND,
    ...scenarioArgs(set, scenario),
    '--timeout',
    String(CLIENT_TIMEOUT_MS),
    '-o',
    dir,
  ];
  const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
  const child = spawn(node22(), args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  return new Promise((resolve) => {
    let killed = false;
    const watchdog = setTimeout(() => {
      killed = true;
      killGroup(child.pid);
    }, WATCHDOG_MS);
    const done = () => {
      clearTimeout(watchdog);
      // Whatever the harness left behind in its group (a client that outlived its shell) goes too.
      killGroup(child.pid);
      const unhandled = readSaved(dir, 'stderr.txt')
        .split('\n')
        .filter((line) => line.startsWith(UNHANDLED_MARK));
      resolve({ checks: readChecks(dir), ms: performance.now() - started, killed, output, unhandled });
    };
    child.on('close', done);
    child.on('error', (error) => {
      output += `\n${error.message}`;
      done();
    });
  });
}

/** The checks the harness saved for the one scenario run into `dir`. */
function readChecks(/** @type {string} */ dir) {
  try {
    return /** @type {Check[]} */ (JSON.parse(readSaved(dir, 'checks.json') || '[]'));
  } catch {
    return [];
  }
}

/** A file the harness saved for the one scenario run into `dir` (in a folder of its own naming), or ''. */
function readSaved(/** @type {string} */ dir, /** @type {string} */ name) {
  try {
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' });
    const file = files.find((path) => path === name || path.endsWith(`/${name}`));
    return file ? readFileSync(join(dir, file), 'utf8') : '';
  } catch {
    return '';
  }
}
