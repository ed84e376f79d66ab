import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoPath, requireBuilt } from './built-files.js';

/**
 * A Node program that makes one call over an in-process server and then just
 * ends, without closing the client: nothing is pending, so nothing may hold the
 * process open (the calls' shared deadline timer included).
 */
const PROGRAM = `
import { Client, MemoryTransport } from ${JSON.stringify(repoPath('packages/core/dist/node/index.js'))};
const [clientEnd, serverEnd] = MemoryTransport.createPair();
(async () => {
  for await (const event of serverEnd.messages()) {
    const message = event.message;
    if (message.id === undefined) continue;
    const result =
      message.method === 'initialize'
        ? { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } }
        : { content: [{ type: 'text', text: 'done' }] };
    await serverEnd.send({ jsonrpc: '2.0', id: message.id, result });
  }
})();
const client = new Client(clientEnd, { protocolVersion: '2025-11-25', requestTimeout: 60_000 });
await client.connect();
console.log((await client.callTool('echo', {})).text);
`;

describe('a finished client holds no process open', () => {
  it('a Node program whose calls are all answered exits by itself, long before the request timeout', async () => {
    requireBuilt('packages/core/dist/node/index.js');
    const started = Date.now();
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', PROGRAM], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (data) => {
        out += data;
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.on('close', (exit) => {
        clearTimeout(timer);
        resolve({ code: exit, stdout: out });
      });
    });
    expect(stdout.trim()).toBe('done');
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 20_000);
});
