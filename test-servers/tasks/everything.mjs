/**
 * `@modelcontextprotocol/server-everything` (pinned in package.json), the
 * official reference server, as a second real server for the task client:
 * its `simulate-research-query` tool is a 2025-11-25 task (`taskSupport:
 * "required"`) built on the v1 SDK's experimental task API, and with
 * `ambiguous: true` it asks for input mid-task.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { refusedUrl } from '../http/refused-url.mjs';

/** The server's launcher script: `node <entry> stdio|streamableHttp`. */
export const EVERYTHING_ENTRY = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);

/** How long the HTTP server may take to say it listens. */
const START_TIMEOUT_MS = 10_000;

/** The command line that serves it over stdio (spawn `process.execPath` with these). */
export const EVERYTHING_STDIO_ARGS = Object.freeze([EVERYTHING_ENTRY, 'stdio']);

/**
 * Starts server-everything's Streamable HTTP server (sessions, SSE, an event
 * store) on a free port of this machine and resolves once it listens.
 * It binds every interface; its endpoint is `/mcp`.
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
export async function startEverythingHttp() {
  const port = new URL(await refusedUrl()).port;
  const child = spawn(process.execPath, [EVERYTHING_ENTRY, 'streamableHttp'], {
    env: { ...process.env, PORT: port },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server-everything did not start')), START_TIMEOUT_MS);
    let seen = '';
    child.stderr.on('data', (chunk) => {
      seen += chunk;
      if (seen.includes('listening on port')) {
        clearTimeout(timer);
        resolve(undefined);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited with ${code}: ${seen}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
