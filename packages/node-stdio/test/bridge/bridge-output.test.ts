import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/cli/args.js';
import { runBridge } from '../../src/cli/bridge/bridge.js';
import { type HttpServers, initialize, startHttpServers } from './bridge-peers.js';

let servers: HttpServers;
beforeAll(async () => {
  servers = await startHttpServers();
});
afterAll(() => servers?.close());

describe('mcp bridge output to a local client that does not read', () => {
  it('drops notifications past maxQueuedOutput with one stderr line, and still answers', async () => {
    const command = parseCommandLine(['bridge', `${servers.modes}/stateful`, '--token-env', 'T']);
    if (command.kind !== 'bridge') throw new Error('not a bridge command');
    const stdin = new PassThrough();
    // A real stream with a small buffer, nobody reading it yet: what the bridge writes waits in it.
    const stdout = new PassThrough({ highWaterMark: 1024 });
    let stderr = '';
    const exit = runBridge(
      { ...command, maxQueuedOutput: 4096 },
      { stdin, stdout, stderr: { write: (chunk: string) => (stderr += chunk) }, env: { T: 'x' } },
    );
    const send = (message: unknown) => stdin.write(`${JSON.stringify(message)}\n`);
    send(initialize(1));
    // The answer to initialize, read as the local client would.
    while (stdout.readableLength === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(JSON.parse(String(stdout.read()))).toMatchObject({ id: 1, result: {} });
    const steps = 300;
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'slow', arguments: { steps, intervalMs: 0 }, _meta: { progressToken: 'p' } },
    });
    while (!stderr.includes('notifications are dropped')) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(stderr.match(/dropped notifications\/progress/g)).toHaveLength(1);
    expect(stdout.writableLength).toBeLessThan(4096 + 1024);

    // The local client reads again: the answer was kept, the progress past the bound was not.
    let out = '';
    stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const messages = () =>
      out
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    while (!messages().some((message) => message.id === 2)) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(messages().find((message) => message.id === 2)).toMatchObject({
      result: { content: [{ text: `done after ${steps} steps` }] },
    });
    const progress = messages().filter((message) => message.method === 'notifications/progress').length;
    expect(progress).toBeGreaterThan(0);
    expect(progress).toBeLessThan(steps);
    stdin.end();
    expect(await exit).toBe(0);
  });
});
