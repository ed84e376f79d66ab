#!/usr/bin/env node
/**
 * The task servers over stdio: `node test-servers/tasks/stdio.mjs
 * [--revision 2025-11-25|2026-07-28]`. 2025-11-25 (the default) is the v1 SDK's
 * experimental core tasks (v1-task-server.mjs); 2026-07-28 the
 * `io.modelcontextprotocol/tasks` extension on the v2 SDK (modern-task-server.mjs).
 * Newline-delimited JSON-RPC on stdin/stdout, diagnostics on stderr; exits
 * when stdin ends. Bad flags: a message on stderr and exit code 2.
 */
import { parseArgs } from 'node:util';

/** The revisions `--revision` takes. */
const REVISIONS = ['2025-11-25', '2026-07-28'];

let revision;
try {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { revision: { type: 'string', default: '2025-11-25' } },
    strict: true,
    allowPositionals: false,
  });
  revision = values.revision;
  if (!REVISIONS.includes(revision))
    throw new Error(`--revision must be one of ${REVISIONS.join(', ')}, got ${revision}`);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}

if (revision === '2026-07-28') {
  const { serveModernTaskStdio } = await import('./modern-task-server.mjs');
  await serveModernTaskStdio();
} else {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { createV1TaskServer } = await import('./v1-task-server.mjs');
  const server = createV1TaskServer();
  server.server.onerror = (error) => process.stderr.write(`task server (2025-11-25): ${error.message}\n`);
  process.stdin.on('end', () => void server.close());
  await server.connect(new StdioServerTransport());
}
