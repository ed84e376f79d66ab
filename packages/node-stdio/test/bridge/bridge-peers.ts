/**
 * What the bridge tests talk to: the HTTP reference servers and the fault
 * server (test-servers/http, both eras), the built `mcp` bin spawned as
 * `mcp bridge <url>`, and the official SDK's stdio client in front of it.
 * Every bridge spawned here runs with crash-guard.mjs preloaded, and a test
 * after which one of them crashed (an unhandled rejection or an uncaught
 * exception) fails.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import type { Stream } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, expect } from 'vitest';
import { createFaultScenario, readFaultStats } from '../../../../runtimes/faults.js';
import { startHttpServers as startHttpServersJs } from '../../../../test-servers/http/serve.mjs';
import { Client as SdkClient } from '../../../../test-servers/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js';
import { StdioClientTransport } from '../../../../test-servers/node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.js';

import { CRASH_MARKER } from './crash-guard.mjs';

export { SdkClient };

/** The bin under test: `pnpm --filter @mcp/node-stdio build` first. */
export const bin = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** `node` arguments before the bin: the crash guard, preloaded. */
const guarded = ['--import', new URL('./crash-guard.mjs', import.meta.url).href];

/** How long a bridge still running after its test may take to end (or crash) before it is checked anyway. */
const CRASH_GRACE_MS = 1000;

/** A bridge spawned by the current test: what it wrote on stderr, and when its stderr ended. */
interface Spawned {
  readonly stderr: () => string;
  readonly ended: Promise<void>;
}
const spawned: Spawned[] = [];

/** The crash guard's report in `stderr`, or undefined when there is none. */
export function crashReport(stderr: string): string | undefined {
  const at = stderr.indexOf(CRASH_MARKER);
  return at === -1 ? undefined : stderr.slice(at);
}

// Registered for every file that imports this one: a crash fails the test that spawned the bridge.
afterEach(async () => {
  const bridges = spawned.splice(0);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise((resolve) => {
    timer = setTimeout(resolve, CRASH_GRACE_MS);
  });
  await Promise.race([Promise.all(bridges.map(({ ended }) => ended)), grace]);
  clearTimeout(timer);
  for (const bridge of bridges) expect(crashReport(bridge.stderr()), 'the bridge process crashed').toBeUndefined();
});

/** Watches a bridge's stderr for the crash guard's report until the test ends. */
function watch(stderr: Stream | null | undefined, collected: () => string): void {
  const ended = new Promise<void>((resolve) => {
    if (!stderr) resolve();
    else stderr.once('close', () => resolve()).once('end', () => resolve());
  });
  spawned.push({ stderr: collected, ended });
}

/** What `startHttpServers()` resolves to (test-servers/README.md, "HTTP"). */
export interface HttpServers {
  /** Base of `/stateful`, `/v2`, … */
  readonly modes: string;
  /** Base of the fault server: `POST /faults` makes a scenario. */
  readonly faults: string;
  /** A URL where nothing listens. */
  readonly refused: string;
  close(): Promise<void>;
}

export const startHttpServers: () => Promise<HttpServers> = startHttpServersJs;

/** One request a fault scenario saw; header names are lower-case. */
export interface SeenRequest {
  readonly httpMethod: 'GET' | 'POST' | 'DELETE';
  readonly method?: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** A fault scenario with no rules: a real v1 server behind, and a log of every request it got. */
export async function recordingScenario(servers: HttpServers) {
  const { mcp, stats } = await createFaultScenario(servers.faults, { inner: 'stateful', rules: [] });
  return {
    mcp,
    async requests(): Promise<readonly SeenRequest[]> {
      return ((await readFaultStats(stats)) as { requests: SeenRequest[] }).requests;
    },
  };
}

/**
 * The official SDK's client, spawning the bridge over stdio exactly as an IDE
 * would. `stderr` collects what the bridge logs.
 */
export async function sdkThroughBridge(
  bridgeArgs: readonly string[],
  capabilities: Record<string, unknown> = {},
  env: Record<string, string> = {},
) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...guarded, bin, 'bridge', ...bridgeArgs],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  watch(transport.stderr, () => stderr);
  const client = new SdkClient({ name: 'sdk-ide', version: '1.0.0' }, { capabilities });
  return { client, transport, stderr: () => stderr };
}

/** The bridge with raw pipes, for what a well-behaved client never sends. */
export function rawBridge(bridgeArgs: readonly string[], env: Record<string, string> = {}) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [...guarded, bin, 'bridge', ...bridgeArgs], {
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  let stdout = '';
  let stderr = '';
  const waiters: (() => void)[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const wake of waiters.splice(0)) wake();
  });
  watch(child.stderr, () => stderr);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const messages = () =>
    stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    child,
    exited,
    messages,
    stderr: () => stderr,
    send(message: unknown) {
      child.stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
    },
    /** Resolves once `predicate` holds for what came out so far (bounded by the test's timeout). */
    async until(predicate: () => boolean): Promise<void> {
      while (!predicate()) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    /** The answer to request `id`, once it arrives. */
    async answer(id: string | number): Promise<Record<string, unknown>> {
      const find = () => messages().find((message) => message.id === id && !('method' in message));
      await this.until(() => find() !== undefined);
      return find() as Record<string, unknown>;
    },
  };
}

/** The first message of every session. */
export const initialize = (id: number | string = 0, capabilities: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities, clientInfo: { name: 'raw', version: '1.0.0' } },
});
