import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { requireBuilt } from '../../../packages/core/test/build/built-files.js';
// @ts-expect-error test-servers/ is plain JS without declarations
import { REFERENCE_TOOL_NAMES } from '../../../test-servers/reference/fixtures.mjs';

const script = fileURLToPath(new URL('../index.mjs', import.meta.url));
/** A bound on the whole program: it starts a server, makes three requests and closes in well under a second. */
const RUN_MS = 15_000;

interface Run {
  pid: number | undefined;
  code: number | null;
  killed: boolean;
  stdout: string;
  stderr: string;
}

/** Runs the example as its users do, `node index.mjs [server]`, with the packages it imports built. */
function runExample(...args: string[]): Promise<Run> {
  requireBuilt('packages/core/dist/index.js', 'packages/node-stdio/dist/index.js');
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [script, ...args], { timeout: RUN_MS }, (error, stdout, stderr) => {
      const code = error ? (error.code as number | null) : 0;
      resolve({ pid: child.pid, code, killed: error?.killed ?? false, stdout, stderr });
    });
  });
}

/**
 * A server path no other process has on its command line: a fresh directory with a link to `target`
 * (Node runs the file the link points to), so `running()` finds this run's server and nothing else.
 */
const scratch = mkdtempSync(join(tmpdir(), 'node-script-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
function uniquePath(target: string): string {
  const path = join(scratch, `${randomUUID()}.mjs`);
  symlinkSync(target, path);
  return path;
}

/** The processes alive now whose command line holds `text` (Linux /proc). */
function running(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) pids.push(Number(entry));
    } catch {
      // It ended while we looked.
    }
  }
  return pids;
}

/** Whether process `pid` is still there (a zombie left unreaped counts). */
function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('examples/node-script', () => {
  it('connects to the reference server over stdio, lists its tools, calls add and prints the result', async () => {
    const server = uniquePath(fileURLToPath(new URL('../../../test-servers/stdio.mjs', import.meta.url)));
    const run = await runExample(server);

    expect(run).toMatchObject({ code: 0, killed: false, stderr: '' });
    const [connected, tools, added, ...rest] = run.stdout.trimEnd().split('\n');
    expect(connected).toMatch(/^connected to mcp-reference-server \(protocol \d{4}-\d{2}-\d{2}\)$/);
    // Every page of the listing (the server pages by 5), in the server's order.
    expect(tools?.replace(/^tools: /, '').split(', ')).toEqual(REFERENCE_TOOL_NAMES);
    expect(added).toBe('add(2, 3) = 5; structured: {"sum":5}');
    expect(rest).toEqual([]);
    // client.close() ended the server before the program exited.
    expect(alive(run.pid)).toBe(false);
    expect(running(server)).toEqual([]);
  });

  it('a server that exits at start-up ends the program with the TransportError and exit code 1, nothing left running', async () => {
    const missing = uniquePath(fileURLToPath(new URL('./no-such-server.mjs', import.meta.url)));

    const run = await runExample(missing);

    expect(run.killed).toBe(false); // it ended by itself, inside RUN_MS
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^TransportError: mcp server ".*\.mjs" exited with code 1$/m);
    expect(alive(run.pid)).toBe(false);
    expect(running(missing)).toEqual([]);
  });

  it('a tool that answers isError ends the program with a ToolError on stderr and exit code 1, nothing left running', async () => {
    const server = uniquePath(fileURLToPath(new URL('./failing-add-server.mjs', import.meta.url)));

    const run = await runExample(server);

    expect(run.killed).toBe(false);
    expect(run.code).toBe(1);
    // It got as far as the call, and printed no result for it.
    const printed = run.stdout.trimEnd().split('\n');
    expect(printed).toHaveLength(2);
    expect(printed[0]).toMatch(/^connected to mcp-reference-server /);
    expect(run.stderr).toBe('ToolError: tool add failed: the adder is out of order (asked 2 + 3)\n');
    expect(alive(run.pid)).toBe(false);
    expect(running(server)).toEqual([]);
  });
});
