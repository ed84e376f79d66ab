#!/usr/bin/env node
/**
 * The stdio benchmark server: the v1 SDK's `McpServer` (2025 era, `initialize`)
 * on newline-delimited stdio, with the `echo` and `big` tools. Exits when stdin ends.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createV1BenchServer } from './tools.mjs';

const server = createV1BenchServer();
await server.connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));
