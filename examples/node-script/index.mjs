#!/usr/bin/env node
// The shortest useful Node program over stdio: start an MCP server as a child process, list its
// tools, call one, print what came back, close. Run it with `node examples/node-script/index.mjs`
// (after `pnpm build`), or give it another server: `node index.mjs path/to/server.mjs`.
import { fileURLToPath } from 'node:url';
import { Client, ToolError } from '@mcp/core';
import { StdioTransport } from '@mcp/node-stdio';

// By default the repository's reference server (test-servers/stdio.mjs, on the official SDK).
const server = process.argv[2] ?? fileURLToPath(new URL('../../test-servers/stdio.mjs', import.meta.url));

const client = new Client(new StdioTransport({ command: process.execPath, args: [server] }), {
  clientInfo: { name: 'node-script-example', version: '1.0.0' },
  requestTimeout: 10_000, // a server that stops answering fails the call after 10 s, not 60
});
try {
  await client.connect();
  console.log(`connected to ${client.serverInfo?.name} (protocol ${client.protocolVersion})`);

  const tools = await client.listTools();
  console.log(`tools: ${tools.map((tool) => tool.name).join(', ')}`);

  const result = await client.callTool('add', { a: 2, b: 3 });
  // A tool that ran and failed answers `isError: true` instead of rejecting: a script that
  // relies on the answer treats it as the failure it is (the catch below prints it, exit code 1).
  if (result.isError) throw new ToolError('add', result);
  console.log(`add(2, 3) = ${result.text}; structured: ${JSON.stringify(result.structuredContent)}`);
} catch (error) {
  console.error(`${error.name}: ${error.message}`);
  process.exitCode = 1;
} finally {
  await client.close(); // ends the server's stdin, then SIGTERM, then SIGKILL: never an orphan
}
