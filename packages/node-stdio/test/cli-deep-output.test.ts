import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { toJson } from '../src/cli/format.js';
import { OutputError } from '../src/cli/print-depth.js';
import { run } from '../src/cli/run.js';
import { terminalSafe } from '../src/cli/terminal-text.js';

// A server's answer nested 100,000 arrays deep (test-servers/hostile/stdio.mjs
// --misbehave deep-json): the client delivers it whole, and `mcp` must print it
// or refuse it in words, never die of a RangeError from a recursive walk.

const hostile = fileURLToPath(new URL('../../../test-servers/hostile/stdio.mjs', import.meta.url));
const bin = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const server = ['--', process.execPath, hostile, '--misbehave', 'deep-json'];
const ELIDED = '"[nested deeper than 100 levels]"';
const REFUSED =
  'mcp: the answer nests more than 100 levels deep, past what --json prints (without --json, deeper levels show as [nested deeper than 100 levels])\n';

function capture() {
  const chunks: string[] = [];
  return {
    write: (chunk: string) => chunks.push(chunk) > 0,
    get text() {
      return chunks.join('');
    },
  };
}

async function mcp(argv: string[]) {
  const stdout = capture();
  const stderr = capture();
  const code = await run([...argv, ...server], { stdout, stderr, env: {} });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** Spaces before the deepest `[` of the terminal view: two per level shown. */
function deepestIndent(stdout: string): number {
  return Math.max(...stdout.split('\n').map((line) => (line.trimEnd().endsWith('[') ? line.search(/\S/) : 0)));
}

describe('mcp call on an answer nested 100,000 levels deep', () => {
  it('prints the text and structured content down to 100 levels, and the rest as a marker', async () => {
    const { code, stdout, stderr } = await mcp(['call', 'hostile']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toBe('deep');
    expect(stdout).toContain('structuredContent:');
    expect(stdout.match(new RegExp(ELIDED.replace(/[[\]]/g, '\\$&'), 'g'))).toHaveLength(1);
    // The result is level 1 and structuredContent level 2: its `value` shows 98 levels of arrays.
    expect(deepestIndent(stdout)).toBe(2 * 98);
    expect(stdout.length).toBeLessThan(100_000);
  });

  it('--json refuses it with one readable line and exit 1, printing nothing half-done', async () => {
    const { code, stdout, stderr } = await mcp(['call', 'hostile', '--json']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(REFUSED);
  });
});

describe('mcp on a log message nested 100,000 levels deep', () => {
  it('prints the log line down to 100 levels and the answer after it (the line was lost to a RangeError)', async () => {
    const deepLog = fileURLToPath(new URL('./fixtures/deep-log-server.mjs', import.meta.url));
    const stdout = capture();
    const stderr = capture();
    const code = await run(['call', 'anything', '--', process.execPath, deepLog], { stdout, stderr, env: {} });
    expect(code).toBe(0);
    expect(stdout.text).toBe('after the log\n');
    const nested = `${'['.repeat(100)}${ELIDED}${']'.repeat(100)}`;
    expect(stderr.text).toBe(`server log [info] deep: ${nested}\n`);
  });
});

describe('the print depth bound', () => {
  /** `levels` arrays around 1. */
  const nested = (levels: number): unknown => JSON.parse(`${'['.repeat(levels)}1${']'.repeat(levels)}`);

  it('--json prints data 100 levels deep unchanged, and refuses 101 with OutputError', () => {
    expect(JSON.parse(toJson(nested(100)))).toEqual(nested(100));
    expect(() => toJson(nested(101))).toThrow(OutputError);
    expect(() => toJson({ a: nested(100) })).toThrow(OutputError);
  });

  it('the terminal view keeps 100 levels and replaces the 101st, without a stack overflow at 100,000', () => {
    expect(terminalSafe(nested(100))).toEqual(nested(100));
    expect(terminalSafe(nested(101))).toEqual(JSON.parse(`${'['.repeat(100)}${ELIDED}${']'.repeat(100)}`));
    expect(() => terminalSafe(nested(100_000))).not.toThrow();
  });
});

describe.skipIf(!existsSync(bin))('the built mcp bin on an answer nested 100,000 levels deep', () => {
  const exec = promisify(execFile);

  it('prints it down to 100 levels, and --json refuses it in words (exit 1)', async () => {
    const { stdout } = await exec(process.execPath, [bin, 'call', 'hostile', ...server], { maxBuffer: 1 << 20 });
    expect(stdout.split('\n')[0]).toBe('deep');
    expect(stdout).toContain(ELIDED);
    const refused = await exec(process.execPath, [bin, 'call', 'hostile', '--json', ...server]).catch(
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(refused).toMatchObject({ code: 1, stdout: '', stderr: REFUSED });
  });
});
