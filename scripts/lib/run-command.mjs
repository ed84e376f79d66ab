/**
 * The one way our scripts run a command: terminal attached, in the repository
 * root, and (on POSIX) in its own process group so a timeout or Ctrl+C ends the
 * whole tree the command started, not just its first process.
 */
import { spawn } from 'node:child_process';
import { repoRoot } from './repo-root.mjs';

/** npm and pnpm are `.cmd` shims on Windows, which only a shell can run; Windows has no process groups either. */
const isWindows = process.platform === 'win32';

/**
 * Runs `command args` with inherited stdio; resolves with its exit code and never
 * rejects (127 when it could not start, 128 when a signal ended it). With
 * `timeoutMs`, a command still running then is killed, so a hang cannot eat the
 * CI budget; without it, the command may run as long as it likes.
 */
export function runCommand(command, args, { env = process.env, cwd = repoRoot, timeoutMs } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: 'inherit', shell: isWindows, detached: !isWindows });
    const onInterrupt = () => {
      killTree(child, 'SIGTERM');
      process.exit(130);
    };
    process.once('SIGINT', onInterrupt);
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            console.error(`\n${command} ${args.join(' ')}: no result after ${timeoutMs / 60_000} min, killing it`);
            killTree(child, 'SIGKILL');
          }, timeoutMs);
    const finish = (code) => {
      clearTimeout(timer);
      process.off('SIGINT', onInterrupt);
      resolve(code);
    };
    child.on('error', (error) => {
      console.error(`could not start ${command}: ${error.message}`);
      finish(127);
    });
    child.on('exit', (code, signal) => finish(code ?? (signal ? 128 : 1)));
  });
}

/**
 * Runs `command args` as {@link runCommand} does, but with its stdout and stderr
 * captured (interleaved) instead of shown; resolves with `{ code, output }`.
 */
export function captureCommand(command, args, { env = process.env, cwd = repoRoot, timeoutMs } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: isWindows,
      detached: !isWindows,
    });
    let output = '';
    const keep = (chunk) => {
      output += chunk;
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            output += `\n${command} ${args.join(' ')}: no result after ${timeoutMs / 1000} s, killed`;
            killTree(child, 'SIGKILL');
          }, timeoutMs);
    child.on('error', (error) => {
      output += `\ncould not start ${command}: ${error.message}`;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), output });
    });
  });
}

/** Ends `child` and, on POSIX, every process of its group. */
function killTree(child, signal) {
  try {
    if (isWindows) child.kill(signal);
    else process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}
