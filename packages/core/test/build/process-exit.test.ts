import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoPath, requireBuilt } from './built-files.js';

/**
 * A Node program that makes one call to the scripted server over a memory pair
 * and then just ends, without closing the client: nothing is pending, so
 * nothing may hold the process open (the calls' shared deadline timer included).
 */
const PROGRAM = `
import { Client, MemoryTransport } from ${JSON.stringify(repoPath('packages/core/dist/index.js'))};
import { ScriptedServer } from ${JSON.stringify(repoPath('packages/core/test/client/scripted-server.js'))};
const [clientEnd, serverEnd] = MemoryTransport.createPair();
const server = new ScriptedServer(serverEnd);
const client = new Client(clientEnd, { protocolVersion: '2025-11-25', requestTimeout: 60_000 });
await Promise.all([client.connect(), server.handshake({ capabilities: { tools: {} } })]);
const [result] = await Promise.all([
  client.callTool('echo', {}),
  server.answer('tools/call', { content: [{ type: 'text', text: 'done' }] }),
]);
server.verify();
console.log(result.text);
`;

describe('a finished client holds no process open', () => {
  it('a Node program whose calls are all answered exits by itself, long before the request timeout', async () => {
    requireBuilt('packages/core/dist/index.js');
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
