import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../../../scripts/spec-coverage.mjs', import.meta.url));

const HEADER = '| ID | Requirement | Level | Status | Test file | Test name or reason |\n|---|---|---|---|---|---|';

/** A test file with titles written the ways test files write them. */
const TEST_SOURCE = [
  "describe('lifecycle', () => {",
  "  it('sends initialized after the result', () => {});",
  '  it("answers a server\'s ping before initialized", () => {});',
  '  it.each([1, 2])(`handles case %s`, () => {});',
  "  test.skipIf(process.env.CI)('keeps | in a title', () => {});",
  "  it('a title spelled \\'escaped\\'', () => {});",
  '});',
].join('\n');

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Runs the script on a table of `rows` (after the header), beside one test file holding TEST_SOURCE. */
function check(rows: string[]) {
  dir = mkdtempSync(join(tmpdir(), 'spec-coverage-test-'));
  const testFile = join(dir, 'lifecycle.test.ts');
  writeFileSync(testFile, TEST_SOURCE);
  const table = join(dir, 'coverage.md');
  writeFileSync(table, `# Coverage\n\n${HEADER}\n${rows.join('\n').replaceAll('FILE', testFile)}\n`);
  const report = join(dir, 'report.json');
  const run = spawnSync(process.execPath, [SCRIPT, '--table', table, '--json', report], {
    encoding: 'utf8',
    timeout: 15_000,
  });
  const json = JSON.parse(readFileSync(report, 'utf8')) as { passed: number; failed: number; problems: string[] };
  return { ...run, json, table };
}

describe('scripts/spec-coverage.mjs', () => {
  it('passes a table whose every proven row names a test that exists, however the title is quoted', () => {
    const run = check([
      '| L-1 | initialized | MUST | proven | `FILE` | sends initialized after the result |',
      "| L-2 | ping | MUST | proven | FILE | answers a server's ping before initialized<br>lifecycle |",
      '| L-3 | each | SHOULD | proven | FILE | handles case %s |',
      '| L-4 | pipes | MAY | proven | FILE | keeps \\| in a title |',
      "| L-5 | escapes | MAY | proven | FILE | a title spelled 'escaped' |",
      '| L-6 | a UI rule | SHOULD | declined | | the app owns its UI |',
      '| L-7 | tasks | MUST | pending (issue 14) | | being built |',
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.json).toMatchObject({ passed: 7, failed: 0 });
    expect(run.stdout).toContain('7 rows (5 proven, 1 declined, 0 gap, 1 pending); 7 hold, 0 do not');
  });

  it('fails with table:line when a named test was renamed or its file is gone', () => {
    const run = check([
      '| L-1 | initialized | MUST | proven | FILE | sends initialized after the result |',
      '| L-2 | renamed | MUST | proven | FILE | sends initialized once the result came |',
      '| L-3 | moved | MUST | proven | packages/core/test/nowhere/gone.test.ts | anything |',
    ]);
    expect(run.status).toBe(1);
    expect(run.json).toMatchObject({ passed: 1, failed: 2 });
    expect(run.stderr).toContain(
      `${run.table}:6: row L-2 ${join(dir ?? '', 'lifecycle.test.ts')} has no test titled "sends initialized once the result came"`,
    );
    expect(run.stderr).toContain(
      `${run.table}:7: row L-3 names packages/core/test/nowhere/gone.test.ts, which does not exist`,
    );
  });

  it('reads a table as a Markdown formatter pads it', () => {
    dir = mkdtempSync(join(tmpdir(), 'spec-coverage-test-'));
    const testFile = join(dir, 'lifecycle.test.ts');
    writeFileSync(testFile, TEST_SOURCE);
    const table = join(dir, 'padded.md');
    const rows = [
      '| ID  | Requirement | Level | Status   | Test file | Test name or reason                  |',
      '| --- | ----------- | :---: | -------- | --------- | ------------------------------------ |',
      `| P-1 | padded      | MUST  | proven   | ${testFile} | sends initialized after the result   |`,
      '| P-2 | padded      | MAY   | declined |           | the app decides                      |',
    ];
    writeFileSync(table, `${rows.join('\n')}\n`);
    const run = spawnSync(process.execPath, [SCRIPT, '--table', table], { encoding: 'utf8', timeout: 15_000 });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('2 rows (1 proven, 1 declined, 0 gap, 0 pending); 2 hold, 0 do not');
  });

  it('does not take a title that only appears outside a test call, or only part of one', () => {
    const run = check([
      '| L-1 | comment | MUST | proven | FILE | lifecycle.test |',
      '| L-2 | prefix | MUST | proven | FILE | sends initialized |',
    ]);
    expect(run.status).toBe(1);
    expect(run.json).toMatchObject({ passed: 0, failed: 2 });
  });

  it('fails a row with an unknown status, no reason, no test named, or an id used twice', () => {
    const run = check([
      '| L-1 | done? | MUST | maybe | | |',
      '| L-2 | declined | SHOULD | declined | | |',
      '| L-3 | proven | MUST | proven | FILE | |',
      '| L-4 | first | MUST | gap | | the client does not do it |',
      '| L-4 | again | MUST | gap | | the client does not do it either |',
    ]);
    expect(run.status).toBe(1);
    expect(run.json.problems).toEqual([
      expect.stringMatching(/:5: row L-1 status "maybe" is none of proven, declined, gap, pending$/),
      expect.stringMatching(/:5: row L-1 is maybe without a reason$/),
      expect.stringMatching(/:6: row L-2 is declined without a reason$/),
      expect.stringMatching(/:7: row L-3 is proven but names no test$/),
      expect.stringMatching(/:9: row L-4 repeats id L-4 \(first on line 8\)$/),
    ]);
    expect(run.json).toMatchObject({ passed: 1, failed: 4 });
  });

  it('fails a document with no coverage table at all, rather than passing it as empty', () => {
    dir = mkdtempSync(join(tmpdir(), 'spec-coverage-test-'));
    const table = join(dir, 'empty.md');
    writeFileSync(table, '# Coverage\n\nNothing yet.\n');
    const run = spawnSync(process.execPath, [SCRIPT, '--table', table], { encoding: 'utf8', timeout: 15_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('no coverage table');
  });
});
