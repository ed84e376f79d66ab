/* @ts-self-types="./spawn-servers.d.ts" */
/**
 * Starts the HTTP test servers as a Node child process (they are built on the
 * official SDK for Node) and reads their URLs from its one JSON line, for the
 * runtimes that are not Node: Deno and Bun. Uses only `node:child_process`,
 * which both provide. The server exits when its stdin pipe closes, so it
 * cannot outlive the test process even if `stop()` is never reached.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SERVE = fileURLToPath(new URL('../test-servers/http/serve.mjs', import.meta.url));
const START_TIMEOUT_MS = 15_000;

/** Resolves to `{ urls: { modes, faults }, stop() }` once the servers listen. */
export function spawnHttpServers() {
  const child = spawn('node', [SERVE], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => fail(new Error(`no URLs from ${SERVE} after ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    function fail(error) {
      clearTimeout(timer);
      child.kill();
      reject(error);
    }
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`${SERVE} exited with ${code} before printing its URLs`)));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const end = output.indexOf('\n');
      if (end < 0) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.stdout.removeAllListeners('data');
      const { modes, faults } = JSON.parse(output.slice(0, end));
      const exited = new Promise((done) => child.once('exit', done));
      resolve({
        urls: { modes, faults },
        async stop() {
          child.stdin.end();
          await exited;
        },
      });
    });
  });
}
