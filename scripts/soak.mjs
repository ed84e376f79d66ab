#!/usr/bin/env node
// `pnpm soak [--calls N] [--seconds S] [--seed K] [--clients C] [--concurrency P]`:
// the long soak of issue 12 on the built package (run `pnpm build` first).
// Thousands of calls through random resets before and after delivery, 503
// storms, dropped streams and session expiries; then every call must have
// settled once, no tool run twice, and handles, listeners, open responses and
// the heap must be back where they were. Prints a summary; exits 1 on any
// problem. The test suite runs the same module briefly (soak.test.ts).
import { parseArgs } from 'node:util';
import { Client, McpError, StreamableHttpTransport } from '../packages/core/dist/node/index.js';
import { problems, runSoak, summary } from '../packages/core/test/soak/soak.mjs';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '10000' },
    seconds: { type: 'string' },
    seed: { type: 'string', default: '12' },
    clients: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '4' },
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
const found = problems(report);
for (const problem of found) console.log(`PROBLEM: ${problem}`);
console.log(found.length === 0 ? 'soak: ok' : `soak: ${found.length} problem(s)`);
process.exitCode = found.length === 0 ? 0 : 1;
