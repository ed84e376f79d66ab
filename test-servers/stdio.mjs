#!/usr/bin/env node
/**
 * The reference MCP server over stdio: `node test-servers/stdio.mjs
 * [--sdk v1|v2] [--profile full|minimal] [--page-size N] [--trace] [--noise]
 * [--exit-on-call <tool>]` (fault flags: see reference/stdio-faults.mjs). Newline-delimited
 * JSON-RPC on stdin/stdout; diagnostics go to stderr only, as stdio requires
 * (2025-11-25, basic/transports § stdio). Exits when stdin ends.
 */
import { parseCliOptions } from './reference/cli-options.mjs';

let options;
try {
  options = parseCliOptions(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}

if (options.sdk === 'v2') {
  const { serveV2Stdio } = await import('./reference/v2-server.mjs');
  await serveV2Stdio(options);
} else {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { createV1Server } = await import('./reference/v1-server.mjs');
  const server = createV1Server(options);
  const transport = new StdioServerTransport();
  server.onerror = (error) => process.stderr.write(`reference server: ${error.message}\n`);
  process.stdin.on('end', () => void server.close());
  const { instrumentStdioTransport } = await import('./reference/stdio-faults.mjs');
  instrumentStdioTransport(transport, options);
  await server.connect(transport);
}
