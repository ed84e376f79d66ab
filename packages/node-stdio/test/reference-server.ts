import { fileURLToPath } from 'node:url';
import { Client, type ClientOptions } from '@mcp/core';
import { StdioTransport } from '@mcp/node-stdio';

const serverScript = fileURLToPath(new URL('../../../test-servers/stdio.mjs', import.meta.url));

/** A client on a freshly spawned reference server (test-servers/stdio.mjs), with its stderr captured. */
export interface ReferenceConnection {
  readonly client: Client;
  readonly transport: StdioTransport;
  /** Every stderr line the server wrote so far. */
  readonly stderr: string[];
  /** The messages the server received, from its `--trace` output. */
  received(): Array<{ id?: number | string; method?: string; params?: Record<string, unknown> }>;
  /** Resolves when a received message matches, or rejects after `ms`. */
  waitForReceived(
    match: (message: { method?: string; params?: Record<string, unknown> }) => boolean,
    ms?: number,
  ): Promise<void>;
}

/** Starts the reference server with `flags` (always traced) and a client on it. */
export function spawnReference(flags: string[] = [], options: ClientOptions = {}): ReferenceConnection {
  const stderr: string[] = [];
  const transport = new StdioTransport({
    command: process.execPath,
    args: [serverScript, '--trace', ...flags],
    stderr: (line) => stderr.push(line),
    closeTimeout: 500,
  });
  const client = new Client(transport, { clientInfo: { name: 'stdio-tests', version: '1.0.0' }, ...options });
  const received = () =>
    stderr.filter((line) => line.startsWith('mcp-trace ')).map((line) => JSON.parse(line.slice('mcp-trace '.length)));
  return {
    client,
    transport,
    stderr,
    received,
    async waitForReceived(match, ms = 3000) {
      const deadline = Date.now() + ms;
      while (!received().some(match)) {
        if (Date.now() > deadline) throw new Error(`the server never received the expected message within ${ms} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
