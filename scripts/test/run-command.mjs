import { spawn } from 'node:child_process';

/** Longest any one step may run before it is killed, so a hang cannot eat the CI budget. */
const STEP_TIMEOUT_MS = 20 * 60_000;

/**
 * Runs a command with inherited stdio in its own process group, so a timeout (or
 * Ctrl+C) ends the whole tree it started, not just the first process.
 * Resolves with the exit code (never rejects); a spawn failure is reported as 127.
 */
export function runCommand(command, args, { env = process.env, timeoutMs = STEP_TIMEOUT_MS } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env, detached: true });
    const killTree = (signal) => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    };
    const onInterrupt = () => {
      killTree('SIGTERM');
      process.exit(130);
    };
    process.once('SIGINT', onInterrupt);
    const timer = setTimeout(() => {
      console.error(`\n${command} ${args.join(' ')}: no result after ${timeoutMs / 60_000} min, killing it`);
      killTree('SIGKILL');
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
