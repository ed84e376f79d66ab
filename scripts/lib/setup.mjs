/**
 * Gets a fresh clone ready to run: the pinned pnpm, installed packages, built
 * packages. Shared by `npm run demo` and `npm test`; each step does nothing when
 * it is already done. Every function takes the environment later commands should
 * use and resolves to `{ ok, env }`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The pnpm the lockfile was written with; other versions refuse or rewrite it (see the toolchain notes). */
export const PNPM_VERSION = '12.4.2';

/** The repository root, whatever the caller's working directory. */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Records which lockfile node_modules was installed from. */
const INSTALL_STAMP = join(repoRoot, 'node_modules', '.mcp-install-stamp');

/** npm and pnpm are `.cmd` shims on Windows, which only a shell can run. */
const useShell = process.platform === 'win32';

/** Runs a command with the terminal attached; resolves with its exit code (127 if it could not start). */
export function runCommand(command, args, env = process.env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: repoRoot, env, stdio: 'inherit', shell: useShell });
    child.on('error', (error) => {
      console.error(`could not start ${command}: ${error.message}`);
      resolve(127);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

function pnpmVersion(env) {
  const result = spawnSync('pnpm', ['--version'], { env, encoding: 'utf8', shell: useShell });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/**
 * Makes `pnpm` on PATH the pinned version, installing it with npm when needed;
 * npm's global bin directory joins PATH in case the machine lacks it there.
 */
export async function ensurePnpm(env = process.env) {
  const found = pnpmVersion(env);
  if (found === PNPM_VERSION) return { ok: true, env };
  console.log(`pnpm ${PNPM_VERSION} not found (have ${found ?? 'none'}); installing it with npm`);
  const code = await runCommand('npm', ['install', '-g', `pnpm@${PNPM_VERSION}`], env);
  const prefix = spawnSync('npm', ['prefix', '-g'], { env, encoding: 'utf8', shell: useShell }).stdout?.trim();
  const binDir = prefix && (process.platform === 'win32' ? prefix : join(prefix, 'bin'));
  const withBin = binDir ? { ...env, PATH: `${binDir}${delimiter}${env.PATH ?? ''}` } : env;
  const now = pnpmVersion(withBin);
  if (code === 0 && now === PNPM_VERSION) return { ok: true, env: withBin };
  console.error(`could not get pnpm ${PNPM_VERSION}; install it yourself: npm install -g pnpm@${PNPM_VERSION}`);
  return { ok: false, env: withBin };
}

function installFingerprint() {
  const hash = createHash('sha256');
  for (const file of ['pnpm-lock.yaml', 'pnpm-workspace.yaml']) {
    const path = join(repoRoot, file);
    if (existsSync(path)) hash.update(readFileSync(path));
  }
  return hash.digest('hex');
}

/**
 * Runs `pnpm install --frozen-lockfile` when node_modules is missing or was
 * installed from another lockfile (the stamp holds the lockfile's hash).
 */
export async function ensureInstalled(env = process.env) {
  const fingerprint = installFingerprint();
  if (existsSync(INSTALL_STAMP) && readFileSync(INSTALL_STAMP, 'utf8').trim() === fingerprint) return { ok: true, env };
  const code = await runCommand('pnpm', ['install', '--frozen-lockfile'], env);
  if (code !== 0) return { ok: false, env };
  writeFileSync(INSTALL_STAMP, `${fingerprint}\n`);
  return { ok: true, env };
}

/** Newest modification time under `path` (a file or a folder), 0 if it does not exist. */
function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** The files a package publishes from dist: its main, types, bins and export targets. */
function distOutputs(manifest) {
  const targets = [manifest.main, manifest.types, ...Object.values(manifest.bin ?? {})];
  const collect = (value) => {
    if (typeof value === 'string') targets.push(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  collect(manifest.exports);
  return [...new Set(targets.filter((t) => typeof t === 'string' && t.includes('dist/')))];
}

/** Packages whose dist is missing or older than their sources or build config. */
export function staleBuilds() {
  const stale = [];
  const packagesDir = join(repoRoot, 'packages');
  for (const name of existsSync(packagesDir) ? readdirSync(packagesDir) : []) {
    const dir = join(packagesDir, name);
    const manifestPath = join(dir, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    if (!manifest.scripts?.build) continue;
    const inputs = ['src', 'package.json', 'rollup.config.mjs', 'tsconfig.json'].map((p) => newestMtime(join(dir, p)));
    const newestInput = Math.max(...inputs);
    const outputs = distOutputs(manifest).map((p) => join(dir, p));
    if (outputs.length === 0 || outputs.some((p) => !existsSync(p) || statSync(p).mtimeMs < newestInput)) {
      stale.push(manifest.name ?? name);
    }
  }
  return stale;
}

/** Runs `pnpm -r build` when any package's dist is missing or older than its sources. */
export async function ensureBuilt(env = process.env) {
  const stale = staleBuilds();
  if (stale.length === 0) return { ok: true, env };
  console.log(`building ${stale.join(', ')} (dist missing or older than the sources)`);
  const code = await runCommand('pnpm', ['-r', 'build'], env);
  return { ok: code === 0, env };
}
