import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { requireBuilt } from '../../../packages/core/test/build/built-files.js';

const script = fileURLToPath(new URL('../index.mjs', import.meta.url));
/** A bound on the whole program: it starts a server, makes three requests and closes in well under a second. */
const RUN_MS = 15_000;

interface Run {
  code: number | null;
  killed: boolean;
  stdout: string;
  stderr: string;
}

/** Runs the example as its users do, `node index.mjs [server]`, with the packages it imports built. */
function runExample(...args: string[]): Promise<Run> {
  requireBuilt('packages/core/dist/node/index.js', 'packages/node-stdio/dist/index.js');
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { timeout: RUN_MS }, (error, stdout, stderr) => {
      resolve({ code: error ? (error.code as number | null) : 0, killed: error?.killed ?? false, stdout, stderr });
    });
  });
}

describe('examples/node-script', () => {
  it('connects to the reference server over stdio, lists its tools, calls add and prints the result', async () => {
    const run = await runExample();

    expect(run).toMatchObject({ code: 0, killed: false, stderr: '' });
    const [connected, tools, added, ...rest] = run.stdout.trimEnd().split('\n');
    expect(connected).toMatch(/^connected to mcp-reference-server \(protocol \d{4}-\d{2}-\d{2}\)$/);
    // Every page of the listing (the server pages by 5), in the server's order.
    expect(tools?.replace(/^tools: /, '').split(', ')).toEqual(
      expect.arrayContaining(['echo', 'add', 'mixed-content', 'fail', 'slow', 'sample', 'add-tool']),
    );
    expect(added).toBe('add(2, 3) = 5; structured: {"sum":5}');
    expect(rest).toEqual([]);
  });

  it('a server that exits at start-up ends the program with the TransportError and exit code 1, nothing left running', async () => {
    const missing = fileURLToPath(new URL('./no-such-server.mjs', import.meta.url));

    const run = await runExample(missing);

    expect(run.killed).toBe(false); // it ended by itself, inside RUN_MS
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^TransportError: mcp server ".*no-such-server\.mjs" exited with code 1$/m);
  });
});
