import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../../../scripts/soak.mjs', import.meta.url));

/** `pnpm soak` with `args`, as a child process. */
function soak(...args: string[]) {
  return spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8', timeout: 15_000 });
}

describe('pnpm soak arguments', () => {
  it.each([
    [['--calls', 'x'], '--calls must be a positive integer, not "x"'],
    [['--calls', '0'], '--calls must be a positive integer, not "0"'],
    [['--seconds', '1.5'], '--seconds must be a positive integer, not "1.5"'],
    [['--clients', '-2'], '--clients'],
    [['--concurrency', '1e3'], '--concurrency must be a positive integer, not "1e3"'],
    [['--stdio-rounds', ''], '--stdio-rounds must be a positive integer, not ""'],
    [['--seed', 'twelve'], '--seed must be an integer from 0, not "twelve"'],
    [['--calls'], "Option '--calls <value>' argument missing"],
    [['--rounds', '3'], "Unknown option '--rounds'"],
  ])('%j stops with exit code 2 and a usage line, having run nothing', (args, problem) => {
    const run = soak(...args);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(problem);
    expect(run.stderr).toContain('usage: pnpm soak [--calls N]');
    expect(run.stdout).toBe('');
  });
});
