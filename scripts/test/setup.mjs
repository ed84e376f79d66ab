import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { runCommand } from './run-command.mjs';

/** The pnpm the lockfile was written with; other versions refuse or rewrite it (see the toolchain notes). */
export const PNPM_VERSION = '12.4.2';

/** Where Playwright looks for the browser unless CHROMIUM_PATH says otherwise (Debian's package). */
export const chromiumPath = () => process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const INSTALL_MARKER = join('node_modules', '.mcp-install-stamp');

function pnpmVersion(env) {
  const result = spawnSync('pnpm', ['--version'], { env, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/**
 * Makes `pnpm` on PATH the pinned version, installing it with npm when needed.
 * npm's global bin directory is put on PATH too, in case the machine lacks it.
 * Returns the environment every later command should use.
 */
export async function ensurePnpm(env) {
  if (pnpmVersion(env) === PNPM_VERSION) return { ok: true, env };
  console.log(`pnpm ${PNPM_VERSION} not found (have ${pnpmVersion(env) ?? 'none'}); installing it with npm`);
  const code = await runCommand('npm', ['install', '-g', `pnpm@${PNPM_VERSION}`], { env });
  const prefix = spawnSync('npm', ['prefix', '-g'], { env, encoding: 'utf8' }).stdout.trim();
  const withBin = prefix ? { ...env, PATH: `${join(prefix, 'bin')}${delimiter}${env.PATH ?? ''}` } : env;
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
    if (existsSync(file)) hash.update(readFileSync(file));
  }
  return hash.digest('hex');
}

/**
 * Runs `pnpm install --frozen-lockfile` when node_modules is missing or was installed
 * from another lockfile (a stamp in node_modules records the lockfile hash).
 */
export async function ensureInstall(env) {
  const fingerprint = installFingerprint();
  if (existsSync(INSTALL_MARKER) && readFileSync(INSTALL_MARKER, 'utf8').trim() === fingerprint) {
    console.log('node_modules matches pnpm-lock.yaml; skipping install');
    return { ok: true };
  }
  const code = await runCommand('pnpm', ['install', '--frozen-lockfile'], { env });
  if (code !== 0) return { ok: false };
  writeFileSync(INSTALL_MARKER, `${fingerprint}\n`);
  return { ok: true };
}

/**
 * Makes sure the Chromium Playwright drives exists: installs Debian's package with
 * apt when we are root, otherwise says what to do.
 */
export async function ensureChromium(env) {
  const path = chromiumPath();
  if (existsSync(path)) return { ok: true };
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!isRoot || !hasApt || path !== '/usr/bin/chromium') {
    console.error(
      `Chromium not found at ${path}. Install it (Debian: apt-get install --no-install-recommends chromium)` +
        ' or set CHROMIUM_PATH to a Chromium binary.',
    );
    return { ok: false };
  }
  console.log('Chromium missing; installing the Debian package (about a minute)');
  const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
  const updated = await runCommand('apt-get', ['update', '-qq'], { env: aptEnv });
  const installed =
    updated === 0 &&
    (await runCommand('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { env: aptEnv }));
  return { ok: installed === 0 && existsSync(path) };
}
