/**
 * The one way our scripts run a command: in the repository root and (on POSIX)
 * in its own process group, so a timeout or Ctrl+C ends the whole tree the
 * command started, not just its first process.
 */
import { spawn } from 'node:child_process';
import { repoRoot } from './repo-root.mjs';

/** How long a captured command's pipes may stay open after it exits. */
const DRAIN_MS = 2_000;

/** npm and pnpm are `.cmd` shims on Windows, which only a shell can run; Windows has no process groups either. */
const isWindows = process.platform === 'win32';

/**
 * Runs `command args` with inherited stdio; resolves with its exit code and never
 * rejects (127 when it could not start, 128 when a signal ended it). With
 * `timeoutMs`, a command still running then is killed, so a hang cannot eat the
 * CI budget; without it, the command may run as long as it likes.
 */
export async function runCommand(command, args, { env = process.env, cwd = repoRoot, timeoutMs } = {}) {
  const { code } = await run(command, args, { env, cwd, timeoutMs, capture: false });
  return code;
}

/**
 * Runs `command args` as {@link runCommand} does, but with its stdout and stderr
 * captured (interleaved) instead of shown; resolves with `{ code, output }`. Several
 * may run at once: Ctrl+C ends every one of them.
 */
export function captureCommand(command, args, { env = process.env, cwd = repoRoot, timeoutMs } = {}) {
  return run(command, args, { env, cwd, timeoutMs, capture: true });
}

function run(command, args, { env, cwd, timeoutMs, capture }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      env,
      stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      shell: isWindows,
      detached: !isWindows,
    });
    if (running.size === 0) process.on('SIGINT', onInterrupt);
    running.add(child);
    let output = '';
    const keep = (chunk) => {
      output += chunk;
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const say = (line) => {
      if (capture) output += `\n${line}\n`;
      else console.error(`\n${line}`);
    };
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            say(`${command} ${args.join(' ')}: no result after ${timeoutMs / 1000} s, killing it`);
            killTree(child, 'SIGKILL');
          }, timeoutMs);
    child.on('error', (error) => say(`${command}: ${error.message}`));
    // 'close' waits for the pipes to drain as well, so a captured run's output is whole; a
    // process the command left behind may hold them open, so they are cut a moment after it exits.
    let drain;
    child.on('exit', () => {
      drain = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
      }, DRAIN_MS);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(drain);
      running.delete(child);
      if (running.size === 0) process.off('SIGINT', onInterrupt);
      const started = child.pid !== undefined;
      resolve({ code: started ? (code ?? (signal ? 128 : 1)) : 127, output });
    });
  });
}

/** The commands under way; one Ctrl+C handler ends them all (each is its own process group). */
const running = new Set();

function onInterrupt() {
  for (const child of running) killTree(child, 'SIGTERM');
  process.exit(130);
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
