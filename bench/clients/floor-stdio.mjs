/**
 * The floor over stdio: a raw newline-delimited pipe. Chunks are kept until a
 * newline, joined once and `JSON.parse`d; answers are matched to calls by id.
 * Connect is `initialize` (one round trip) + `notifications/initialized` (a write).
 */
import { spawn } from 'node:child_process';

/** @param {{ command: string, args?: string[] }} target */
export function floorStdio(target) {
  /** @type {import('node:child_process').ChildProcessWithoutNullStreams | undefined} */
  let child;
  /** @type {Map<number, { resolve: (value: any) => void, reject: (error: Error) => void }>} */
  const pending = new Map();
  let nextId = 1;
  /** @type {Buffer[]} */
  let parts = [];

  /** @param {Buffer} line */
  function deliver(line) {
    if (line.length === 0) return;
    const message = JSON.parse(line.toString());
    const call = pending.get(message.id);
    if (call === undefined) return;
    pending.delete(message.id);
    if (message.error) call.reject(new Error(message.error.message));
    else call.resolve(message.result);
  }

  /** @param {Buffer} chunk */
  function onData(chunk) {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      parts.push(chunk.subarray(start, end));
      deliver(parts.length === 1 ? /** @type {Buffer} */ (parts[0]) : Buffer.concat(parts));
      parts = [];
      start = end + 1;
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
  }

  /**
   * @param {string} method
   * @param {object} params
   */
  function request(method, params) {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      child?.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  return {
    async connect() {
      child = spawn(target.command, target.args ?? [], { stdio: ['pipe', 'pipe', 'inherit'] });
      child.stdout.on('data', onData);
      child.on('exit', () => {
        for (const call of pending.values()) call.reject(new Error('server exited'));
        pending.clear();
      });
      const params = {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'bench', version: '1.0.0' },
      };
      await request('initialize', params);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    },
    /**
     * @param {string} name
     * @param {object} args
     */
    async call(name, args) {
      return (await request('tools/call', { name, arguments: args })).content;
    },
    async close() {
      const current = child;
      if (current === undefined || current.exitCode !== null) return;
      const exited = new Promise((resolve) => current.once('exit', resolve));
      current.stdin.end();
      const timer = setTimeout(() => current.kill('SIGKILL'), 2000);
      await exited;
      clearTimeout(timer);
    },
    era: () => '2025-11-25',
  };
}
