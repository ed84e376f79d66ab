/**
 * The two tools every benchmark server offers, on either official SDK:
 * `echo` (a small call, the per-call overhead workloads) and `big` (one text
 * part of BIG_RESULT_BYTES, the large-result workload). The big text is built
 * once per process so the server's cost stays out of the client's way.
 */
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { BIG_RESULT_BYTES } from './big-result.mjs';

const SERVER_INFO = { name: 'mcp-bench-server', version: '1.0.0' };

/** @type {string | undefined} */
let big;
function bigText() {
  if (big === undefined) {
    const line = 'the quick brown fox jumps over the lazy dog 0123456789\n';
    big = line.repeat(Math.ceil(BIG_RESULT_BYTES / line.length)).slice(0, BIG_RESULT_BYTES);
  }
  return big;
}

/** @param {{ text: string }} args */
const echo = async ({ text }) => ({ content: [{ type: 'text', text }] });
const bigResult = async () => ({ content: [{ type: 'text', text: bigText() }] });

/** A v1 (`@modelcontextprotocol/sdk` 1.x) server with `echo` and `big`: one per session. */
export function createV1BenchServer() {
  const server = new McpServerV1(SERVER_INFO, { capabilities: { tools: {} } });
  server.registerTool('echo', { description: 'Returns its text.', inputSchema: { text: z.string() } }, echo);
  server.registerTool('big', { description: `Returns ${BIG_RESULT_BYTES} bytes of text.` }, bigResult);
  return server;
}

/** A v2 (`@modelcontextprotocol/server`) server with `echo` and `big`; serves 2026-07-28 and 2025 traffic. */
export function createV2BenchServer() {
  const server = new McpServerV2(SERVER_INFO, { capabilities: { tools: {} } });
  server.registerTool('echo', { description: 'Returns its text.', inputSchema: z.object({ text: z.string() }) }, echo);
  server.registerTool('big', { description: `Returns ${BIG_RESULT_BYTES} bytes of text.` }, bigResult);
  return server;
}

// Warm the text at import, so the first `big` call costs the server nothing extra.
bigText();
