/**
 * Gets a fresh clone ready to run: the pinned pnpm, installed packages, built
 * packages, and the Chromium Playwright drives. Shared by `npm run demo` and
 * `npm test`; each step does nothing when it is already done. Every step takes
 * the environment later commands should use (plus an optional per-command
 * `timeoutMs`) and resolves to `{ ok, env }`.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { redisServerPath } from '../../test-servers/redis/redis-server.mjs';
import { repoRoot } from './repo-root.mjs';
import { runCommand } from './run-command.mjs';

/** The pnpm the lockfile was written with; other versions refuse or rewrite it (see the toolchain notes). */
export const PNPM_VERSION = '12.4.2';

/** Where Playwright looks for the browser unless CHROMIUM_PATH says otherwise (Debian's package). */
export const chromiumPath = () => process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Records which lockfile node_modules was installed from. */
const INSTALL_STAMP = join(repoRoot, 'node_modules', '.mcp-install-stamp');

/** npm and pnpm are `.cmd` shims on Windows, which only a shell can run. */
const useShell = process.platform === 'win32';

function pnpmVersion(env) {
  const result = spawnSync('pnpm', ['--version'], { env, encoding: 'utf8', shell: useShell });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/**
 * Makes `pnpm` on PATH the pinned version, installing it with npm when needed;
 * npm's global bin directory joins PATH in case the machine lacks it there.
 */
export async function ensurePnpm(env = process.env, { timeoutMs } = {}) {
  const had = pnpmVersion(env);
  if (had === PNPM_VERSION) return { ok: true, env };
  console.log(`pnpm ${PNPM_VERSION} not found (have ${had ?? 'none'}); installing it with npm`);
  const code = await runCommand('npm', ['install', '-g', `pnpm@${PNPM_VERSION}`], { env, timeoutMs });
  const prefix = spawnSync('npm', ['prefix', '-g'], { env, encoding: 'utf8', shell: useShell }).stdout?.trim();
  const binDir = prefix && (process.platform === 'win32' ? prefix : join(prefix, 'bin'));
  const withBin = binDir ? { ...env, PATH: `${binDir}${delimiter}${env.PATH ?? ''}` } : env;
  const found = pnpmVersion(withBin);
  if (code === 0 && found === PNPM_VERSION) return { ok: true, env: withBin };
  console.error(
    `could not get pnpm ${PNPM_VERSION} (npm exit ${code}, pnpm on PATH: ${found ?? 'none'}).` +
      ` Install it yourself: npm install -g pnpm@${PNPM_VERSION}`,
  );
  return { ok: false, env: withBin };
}

/** What node_modules must have been installed from: the lockfile and the workspace settings. */
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
export async function ensureInstalled(env = process.env, { timeoutMs } = {}) {
  const fingerprint = installFingerprint();
  if (existsSync(INSTALL_STAMP) && readFileSync(INSTALL_STAMP, 'utf8').trim() === fingerprint) {
    console.log('node_modules matches pnpm-lock.yaml; skipping install');
    return { ok: true, env };
  }
  const code = await runCommand('pnpm', ['install', '--frozen-lockfile'], { env, timeoutMs });
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
export async function ensureBuilt(env = process.env, { timeoutMs } = {}) {
  const stale = staleBuilds();
  if (stale.length === 0) return { ok: true, env };
  console.log(`building ${stale.join(', ')} (dist missing or older than the sources)`);
  const code = await runCommand('pnpm', ['-r', 'build'], { env, timeoutMs });
  return { ok: code === 0, env };
}

/**
 * Makes sure the Chromium Playwright drives exists: installs Debian's package with
 * apt when it is missing (see {@link aptInstall}), otherwise says what to do.
 */
export async function ensureChromium(env = process.env, { timeoutMs } = {}) {
  const path = chromiumPath();
  if (existsSync(path)) return { ok: true, env };
  if (path !== '/usr/bin/chromium') {
    console.error(`Chromium not found at ${path}. Install it, or set CHROMIUM_PATH to a Chromium binary.`);
    return { ok: false, env };
  }
  console.log('Chromium missing; installing the Debian package (about a minute)');
  const installed = await aptInstall('chromium', env, { timeoutMs, hint: 'or set CHROMIUM_PATH to a Chromium binary' });
  return { ok: installed && existsSync(path), env };
}

/**
 * Makes sure the redis-server the store tests start (test-servers/redis) exists:
 * installs Debian's package `redis-server` when it is missing. The tests run
 * their own server on a free port; the package's service is not needed, and
 * nothing here starts or enables it.
 */
export async function ensureRedisServer(env = process.env, { timeoutMs } = {}) {
  const path = redisServerPath();
  if (existsSync(path)) return { ok: true, env };
  if (path !== '/usr/bin/redis-server') {
    console.error(`redis-server not found at ${path}. Install it, or set REDIS_SERVER_PATH to a redis-server binary.`);
    return { ok: false, env };
  }
  console.log('redis-server missing; installing the Debian package');
  const installed = await aptInstall('redis-server', env, {
    timeoutMs,
    hint: 'or set REDIS_SERVER_PATH to a redis-server binary',
  });
  return { ok: installed && existsSync(path), env };
}

/**
 * Installs Debian package `name` with apt-get: directly as root, else through
 * `sudo -n` (never a password prompt). Without apt, or without root or
 * password-less sudo, says what to run and resolves false.
 */
async function aptInstall(name, env, { timeoutMs, hint }) {
  const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  const isRoot = process.getuid?.() === 0;
  const canSudo = !isRoot && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  if (!hasApt || (!isRoot && !canSudo)) {
    console.error(
      `${name} is needed. Install it (Debian: sudo apt-get install --no-install-recommends ${name}) ${hint}.`,
    );
    return false;
  }
  const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) =>
    isRoot
      ? runCommand('apt-get', args, { env: aptEnv, timeoutMs })
      : runCommand('sudo', ['-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args], { env, timeoutMs });
  return (
    (await apt(['update', '-qq'])) === 0 && (await apt(['install', '-y', '-qq', '--no-install-recommends', name])) === 0
  );
}
