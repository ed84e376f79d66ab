import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../../../scripts/hostile-table.mjs', import.meta.url));

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Runs `pnpm hostile-table --report` on a vitest JSON report with these file results. */
function table(testResults: unknown[]) {
  dir = mkdtempSync(join(tmpdir(), 'hostile-table-test-'));
  const report = join(dir, 'report.json');
  writeFileSync(report, JSON.stringify({ testResults }));
  return spawnSync(process.execPath, [SCRIPT, '--report', report], { encoding: 'utf8', timeout: 15_000 });
}

describe('pnpm hostile-table', () => {
  it('counts a file that did not run as one failed run, not NaN', () => {
    const run = table([
      {
        name: '/work/packages/core/test/hostile/bombs.test.ts',
        status: 'passed',
        assertionResults: [
          { ancestorTitles: ['bombs (legacy era)'], title: 'a gzip bomb fails with a typed error', status: 'passed' },
        ],
      },
      { name: '/work/packages/core/test/hostile/floods.test.ts', status: 'failed', assertionResults: [] },
    ]);
    expect(run.stdout).toContain(': 2 bad inputs, 2 runs across transports and eras, 1 survived.');
    expect(run.stdout).toContain('| floods.test.ts | the whole file | did not run |  | **no** (1 failed) |');
    // A table showing a fault not survived is still printed, but the run fails.
    expect(run.status).toBe(1);
  });

  it('places the cases behind mcp bridge in their own family, on the bridge in front of HTTP, per era', () => {
    const file = '/work/packages/node-stdio/test/bridge/hostile-bridge.test.ts';
    const title = 'a tool result nested 100,000 arrays deep is answered with -32603; the next call works';
    const run = table([
      {
        name: file,
        status: 'passed',
        assertionResults: ['legacy', 'modern'].map((era) => ({
          ancestorTitles: [`behind mcp bridge (${era} era)`],
          title,
          status: 'passed',
        })),
      },
    ]);
    expect(run.stdout).toContain(
      '| behind mcp bridge | a tool result nested 100,000 arrays deep | is answered with -32603; the next call works | bridge → HTTP legacy, bridge → HTTP 2026-07-28 | yes |',
    );
  });

  it('lists the loopback redirect timeout with its default, and not its port (which bounds nothing)', () => {
    const run = table([]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(
      /^\| `LoopbackAuthorizeOptions\.timeoutMs` \| 300000\b[^|]* \| How long to wait for the browser/m,
    );
    expect(run.stdout).not.toContain('LoopbackAuthorizeOptions.port');
  });
});
