import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SCRIPT = join(ROOT, 'scripts/hostile-table.mjs');

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

  it("lists the connection layer's bounds under the options a program passes, with the values of the constants they name", () => {
    const run = table([]);
    expect(run.status, run.stderr).toBe(0);
    const row = (option: string) =>
      new RegExp(`^\\| \`${option.replaceAll('.', '\\.')}\` \\| ([^|]*) \\|`, 'm').exec(run.stdout)?.[1];
    expect(row('ConnectionOptions.reconnect.maxAttempts')).toMatch(/^8\b/);
    expect(row('ConnectionOptions.reconnect.maxElapsedMs')).toMatch(/^300000\b/);
    expect(row('ConnectionOptions.healthCheck.timeoutMs')).toBe('10000');
    expect(row('ConnectionOptions.connectTimeout')).toBe('30000');
    // "(default {@link DEFAULT_MAX_PENDING}, 8)" and "{@link DEFAULT_AUTHORIZATION_TIMEOUT}" (= DEFAULT_PENDING_TTL_MS):
    // the constants' values, read from the code.
    expect(row('ConnectionOptions.pending.maxPending')).toBe('8');
    expect(row('ConnectionOptions.authorization.timeout')).toMatch(/^600000\b/);
    expect(row('ServersOptions.maxServers')).toBe('32');
    expect(row('ReadyOptions.timeout')).toBe('30000');
    // ServersOptions.tools takes ServersToolOptions, whose bounds name constants of tool-bounds.ts.
    expect(row('ServersOptions.tools.maxDescriptionChars')).toBe('4000');
    expect(row('ServersOptions.tools.maxSchemaBytes')).toMatch(/^65536, 64 KiB\b/);
    expect(row('LeaseOptions.lockWaitMs')).toMatch(/^70 s\b/);
    // A member without `readonly` is read too.
    expect(row('LocalStorageStoreOptions.lockWaitMs')).toMatch(/^60,000\b/);
    expect(row('MAX_CALLBACK_URL_LENGTH')).toBe('16384, fixed');
    // ConnectionOptions.client takes ClientOptions, and ToolSetRecipe only indexes McpToolSetOptions:
    // neither renames the options a program passes by themselves.
    expect(row('ClientOptions.limits.maxPages')).toBe('1000');
    expect(row('McpToolSetOptions.maxSchemaBytes')).toMatch(/^65536\b/);
    expect(run.stdout).not.toMatch(/`(ConnectionOptions\.client|ServersOptions\.connection|ToolSetRecipe)\./);
    expect(run.stdout).not.toContain('{@link');
  });

  it('--write replaces the tables between the markers of docs/limits.md, and leaves README.md alone', () => {
    // A copy of the repository's layout the script can write into: its own scripts/ and docs/, the
    // sources it reads the limits from and the Biome it formats with linked from the real one.
    dir = mkdtempSync(join(tmpdir(), 'hostile-table-write-'));
    mkdirSync(join(dir, 'scripts'));
    mkdirSync(join(dir, 'docs'));
    copyFileSync(SCRIPT, join(dir, 'scripts/hostile-table.mjs'));
    copyFileSync(join(ROOT, 'biome.json'), join(dir, 'biome.json'));
    symlinkSync(join(ROOT, 'packages'), join(dir, 'packages'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    const markers = '<!-- hostile-table:start -->\nold tables\n<!-- hostile-table:end -->';
    writeFileSync(join(dir, 'docs/limits.md'), `# Limits\n\nBefore.\n\n${markers}\n\nAfter.\n`);
    writeFileSync(join(dir, 'README.md'), `# Readme\n\n${markers}\n`);
    const report = join(dir, 'report.json');
    writeFileSync(report, JSON.stringify({ testResults: [] }));

    const run = spawnSync(process.execPath, [join(dir, 'scripts/hostile-table.mjs'), '--report', report, '--write'], {
      encoding: 'utf8',
      timeout: 15_000,
    });

    expect(run.status, run.stderr).toBe(0);
    const page = readFileSync(join(dir, 'docs/limits.md'), 'utf8');
    expect(page).toMatch(/^# Limits\n\nBefore\.\n\n<!-- hostile-table:start -->\nThe hostile-server suite /);
    expect(page).not.toContain('old tables');
    expect(page).toMatch(/\| `LoopbackAuthorizeOptions\.timeoutMs` +\| 300000/);
    expect(page).toMatch(/\n<!-- hostile-table:end -->\n\nAfter\.\n$/);
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe(`# Readme\n\n${markers}\n`);
  });

  it('--write refuses a docs/limits.md without the markers, and changes nothing', () => {
    dir = mkdtempSync(join(tmpdir(), 'hostile-table-write-'));
    mkdirSync(join(dir, 'scripts'));
    mkdirSync(join(dir, 'docs'));
    copyFileSync(SCRIPT, join(dir, 'scripts/hostile-table.mjs'));
    symlinkSync(join(ROOT, 'packages'), join(dir, 'packages'));
    writeFileSync(join(dir, 'docs/limits.md'), '# Limits\n');
    const report = join(dir, 'report.json');
    writeFileSync(report, JSON.stringify({ testResults: [] }));

    const run = spawnSync(process.execPath, [join(dir, 'scripts/hostile-table.mjs'), '--report', report, '--write'], {
      encoding: 'utf8',
      timeout: 15_000,
    });

    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      'docs/limits.md has no <!-- hostile-table:start --> … <!-- hostile-table:end --> section',
    );
    expect(readFileSync(join(dir, 'docs/limits.md'), 'utf8')).toBe('# Limits\n');
  });
});
