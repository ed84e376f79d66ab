// Runs the bundled program for real, one child Node process per scenario
// against the reference test servers, and records which chunks each run loaded:
// the bytes a browser would actually download for that job.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHttpServers } from '../../test-servers/http/serve.mjs';
import { sizeOf } from './split-bundle.mjs';

const runner = fileURLToPath(new URL('./run-program.mjs', import.meta.url));

/** A run that has not finished by then is stuck, not slow: the program does three round trips. */
const RUN_TIMEOUT_MS = 15_000;

/**
 * The servers the minimal program meets (paths of the modes server, test-servers/http/modes.mjs),
 * and the era it must end up speaking with each (2026-07-28 versioning, era detection).
 */
export const SCENARIOS = [
  { name: 'modern', path: '/v2', era: 'modern', about: '2026-07-28 Streamable HTTP (v2 SDK server)' },
  { name: 'legacy-sse', path: '/stateful', era: 'legacy', about: '2025-11-25 stateful Streamable HTTP, SSE answers' },
  {
    name: 'legacy-json',
    path: '/stateless',
    era: 'legacy',
    about: '2025-11-25 stateless Streamable HTTP, JSON answers',
  },
];

/**
 * @typedef {object} Run one scenario's real run
 * @property {string} name
 * @property {string} about
 * @property {string} url
 * @property {'modern' | 'legacy' | undefined} era the era the program spoke (`initialize` sent or not)
 * @property {string | undefined} text what the program returned: the called tool's text
 * @property {string[]} methods the JSON-RPC method of each POST, in order
 * @property {string[]} loaded the chunk files Node loaded, in load order
 * @property {import('./split-bundle.mjs').Sizes} sizes the loaded chunks' sizes
 * @property {string | undefined} error why the run does not count; a failed run measures nothing
 */

/**
 * Writes `bundle` to a temporary directory and runs it once per scenario, all
 * runs at once, against `servers` (started here, and stopped, when not given).
 * @param {import('./split-bundle.mjs').Bundle} bundle
 * @param {{ servers?: { modes: string } }} [options]
 * @returns {Promise<Run[]>}
 */
export async function runScenarios(bundle, { servers } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-size-'));
  const own = servers === undefined ? await startHttpServers() : undefined;
  try {
    // The chunks are ES modules; without this Node would read the .js files as CommonJS.
    await writeFile(join(dir, 'package.json'), '{"type":"module"}\n');
    await Promise.all(bundle.chunks.map((chunk) => writeFile(join(dir, chunk.file), chunk.contents)));
    const base = (servers ?? own).modes;
    return await Promise.all(SCENARIOS.map((scenario) => runOne(bundle, dir, scenario, `${base}${scenario.path}`)));
  } finally {
    await own?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function runOne(bundle, dir, { name, about, era: expected }, url) {
  const log = join(dir, `${name}.loads`);
  await writeFile(log, '');
  const { code, stdout, stderr } = await spawnNode([runner, join(dir, bundle.entry), url, log]);
  const loaded = [];
  for (const line of (await readFile(log, 'utf8')).split('\n')) {
    if (line === '') continue;
    const path = fileURLToPath(line);
    if (dirname(path) === dir && !loaded.includes(basename(path))) loaded.push(basename(path));
  }
  const run = { name, about, url, era: undefined, text: undefined, methods: [], loaded, sizes: sizeOf(bundle, loaded) };
  if (code !== 0) return { ...run, error: `exit ${code}: ${lastLines(stderr)}` };
  const { text, methods } = JSON.parse(stdout);
  const era = methods.includes('initialize') ? 'legacy' : 'modern';
  const error =
    era === expected ? undefined : `spoke the ${era} era, expected ${expected} (sent ${methods.join(', ')})`;
  return { ...run, era, text, methods, error };
}

function spawnNode(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data) => {
      stdout += data;
    });
    child.stderr.on('data', (data) => {
      stderr += data;
    });
    const timer = setTimeout(() => {
      stderr += `\nno result after ${RUN_TIMEOUT_MS} ms, killed`;
      child.kill('SIGKILL');
    }, RUN_TIMEOUT_MS);
    child.on('error', (error) => {
      stderr += error.message;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal, stdout, stderr });
    });
  });
}

const lastLines = (text) => text.trim().split('\n').slice(-6).join('\n');
