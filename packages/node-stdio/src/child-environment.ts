/**
 * The variables a server inherits by default: enough to find programs, a home
 * directory and a terminal, and on Windows what its runtime needs to start at
 * all. Everything else in our environment (API keys, cloud credentials, tokens)
 * stays with us unless the caller names it in `env` or sets `inheritEnv`.
 */
const POSIX_SAFE = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'] as const;
const WINDOWS_SAFE = [
  'APPDATA',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PATH',
  'PROCESSOR_ARCHITECTURE',
  'PROGRAMFILES',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'TEMP',
  'USERNAME',
  'USERPROFILE',
] as const;

/** The names `childEnvironment` passes on from the parent on this platform. */
const INHERITED_VARIABLES: readonly string[] = process.platform === 'win32' ? WINDOWS_SAFE : POSIX_SAFE;

/**
 * The environment of a server child. By default only `INHERITED_VARIABLES`,
 * then `env` on top; with `inheritEnv`, all of `parent` then `env` (the old
 * behaviour). A server that needs a credential gets it through `env`: stdio
 * servers take credentials from their environment, not from OAuth (2025-11-25,
 * basic/authorization § Protocol Requirements).
 *
 * An inherited value starting with `()` is skipped: that is how bash exports a
 * function, and a variable like PATH holding one is an attempt to run code in
 * any shell-script server on an unpatched bash (Shellshock, CVE-2014-6271).
 * Values given in `env` are passed as given: the caller chose them.
 */
export function childEnvironment(
  parent: NodeJS.ProcessEnv,
  env: Readonly<Record<string, string>> | undefined,
  inheritEnv: boolean,
): NodeJS.ProcessEnv {
  if (inheritEnv) return env ? { ...parent, ...env } : parent;
  const child: NodeJS.ProcessEnv = {};
  for (const name of INHERITED_VARIABLES) {
    // On Windows `parent` is case-insensitive, so `Path` is found as PATH.
    const value = parent[name];
    if (value !== undefined && !value.startsWith('()')) child[name] = value;
  }
  return env ? { ...child, ...env } : child;
}
