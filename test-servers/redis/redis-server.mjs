// A real redis-server for the store tests: its own port and directory, nothing persisted, stopped by the test.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The redis-server binary: REDIS_SERVER_PATH, else Debian's package (scripts/lib/setup.mjs installs it). */
export const redisServerPath = () => process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';

/** How long redis-server may take to say it is ready (ms). */
const START_MS = 10_000;

/**
 * Starts redis-server on a free loopback port, in a temporary directory, with
 * persistence off (no RDB snapshots, no append-only file). Resolves once it
 * accepts connections, with its `url` (`redis://127.0.0.1:<port>`), `port` and
 * `close()`, which stops it (SIGTERM, then SIGKILL after 5 s) and removes the directory.
 * @returns {Promise<{ url: string, port: number, close(): Promise<void> }>}
 */
export async function startRedisServer() {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-redis-'));
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      const child = await spawnReady(port, dir);
      return { url: `redis://127.0.0.1:${port}`, port, close: () => stop(child, dir) };
    } catch (error) {
      // The free port may have been taken between the probe and redis-server's bind: try another.
      if (attempt >= 3) {
        await rm(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }
}

/** @param {number} port @param {string} dir @returns {Promise<import('node:child_process').ChildProcess>} */
function spawnReady(port, dir) {
  // biome-ignore format: each option beside its value reads best
  const args = [
    '--port', String(port), '--bind', '127.0.0.1', '--dir', dir,
    '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'notice',
  ];
  const child = spawn(redisServerPath(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => fail(new Error(`redis-server did not start within ${START_MS} ms:\n${output}`)),
      START_MS,
    );
    const fail = (/** @type {Error} */ error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.once('error', (error) =>
      fail(new Error(`cannot run ${redisServerPath()} (Debian: apt-get install redis-server): ${error.message}`)),
    );
    child.once('exit', (code) => fail(new Error(`redis-server exited (${code}) before it was ready:\n${output}`)));
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      if (!output.includes('Ready to accept connections')) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.stdout.removeAllListeners('data').resume();
      resolve(child);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
    });
  });
}

/** @param {import('node:child_process').ChildProcess} child @param {string} dir */
async function stop(child, dir) {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
  await rm(dir, { recursive: true, force: true });
}

/** A port nothing listens on now. @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}
