#!/usr/bin/env node
// `pnpm soak [--calls N] [--seconds S] [--seed K] [--clients C] [--concurrency P] [--stdio-rounds R]`:
// the long soak of issue 12 on the built package (run `pnpm build` first).
// Thousands of calls through random resets before and after delivery, 503
// storms, dropped streams and session expiries; then every call must have
// settled once, no tool run twice, and handles, listeners, open responses and
// the heap must be back where they were. Then R stdio servers are crashed,
// killed, made noisy or closed under their calls, and every child must be
// gone. Prints a summary; exits 1 on any problem. The test suite runs the
// same modules briefly (packages/core/test/soak/soak.test.ts).
import { parseArgs } from 'node:util';
import { Client, McpError, StreamableHttpTransport } from '../packages/core/dist/node/index.js';
import { problems, runSoak, summary } from '../packages/core/test/soak/soak.mjs';
import { runStdioSoak, stdioProblems, stdioSummary } from '../packages/core/test/soak/stdio-soak.mjs';
import { StdioTransport } from '../packages/node-stdio/dist/index.js';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '10000' },
    seconds: { type: 'string' },
    seed: { type: 'string', default: '12' },
    clients: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '4' },
    'stdio-rounds': { type: 'string', default: '50' },
  },
  strict: true,
});

const report = await runSoak({
  Client,
  StreamableHttpTransport,
  McpError,
  calls: Number(values.calls),
  ...(values.seconds !== undefined && { seconds: Number(values.seconds) }),
  seed: Number(values.seed),
  clients: Number(values.clients),
  concurrency: Number(values.concurrency),
  log: (line) => console.log(line),
});
console.log(summary(report));
const stdio = await runStdioSoak({
  Client,
  StdioTransport,
  McpError,
  rounds: Number(values['stdio-rounds']),
  seed: Number(values.seed),
});
console.log(stdioSummary(stdio));
const found = [...problems(report), ...stdioProblems(stdio)];
for (const problem of found) console.log(`PROBLEM: ${problem}`);
console.log(found.length === 0 ? 'soak: ok' : `soak: ${found.length} problem(s)`);
process.exitCode = found.length === 0 ? 0 : 1;
