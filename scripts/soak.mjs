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

const USAGE =
  'usage: pnpm soak [--calls N] [--seconds S] [--seed K] [--clients C] [--concurrency P] [--stdio-rounds R]\n' +
  '  N, S, C, P, R: positive integers; K: an integer from 0';

/** @param {string} problem */
function usage(problem) {
  process.stderr.write(`soak: ${problem}\n${USAGE}\n`);
  process.exit(2);
}

/** @type {ReturnType<typeof parseArgs>['values']} */
let values;
try {
  ({ values } = parseArgs({
    options: {
      calls: { type: 'string', default: '10000' },
      seconds: { type: 'string' },
      seed: { type: 'string', default: '12' },
      clients: { type: 'string', default: '4' },
      concurrency: { type: 'string', default: '4' },
      'stdio-rounds': { type: 'string', default: '50' },
    },
    strict: true,
  }));
} catch (error) {
  usage(error instanceof Error ? error.message : String(error));
}

/**
 * The option's value as an integer no smaller than `min`; anything else (`x`,
 * `1.5`, `-3`, `1e3`) stops the run, which would otherwise make zero calls and say ok.
 * @param {string} name
 * @param {number} [min]
 */
function integer(name, min = 1) {
  const text = /** @type {string} */ (values[name]);
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min) {
    usage(
      `--${name} must be ${min === 1 ? 'a positive integer' : `an integer from ${min}`}, not ${JSON.stringify(text)}`,
    );
  }
  return value;
}

const calls = integer('calls');
const seconds = values.seconds === undefined ? undefined : integer('seconds');
const seed = integer('seed', 0);
const clients = integer('clients');
const concurrency = integer('concurrency');
const stdioRounds = integer('stdio-rounds');

// Loaded once the arguments are good: a usage error needs no build.
const { Client, McpError, StreamableHttpTransport } = await import('../packages/core/dist/index.js');
const { problems, runSoak, summary } = await import('../packages/core/test/soak/soak.mjs');
const { runStdioSoak, stdioProblems, stdioSummary } = await import('../packages/core/test/soak/stdio-soak.mjs');
const { StdioTransport } = await import('../packages/node-stdio/dist/index.js');

const report = await runSoak({
  Client,
  StreamableHttpTransport,
  McpError,
  calls,
  ...(seconds !== undefined && { seconds }),
  seed,
  clients,
  concurrency,
  log: (line) => console.log(line),
});
console.log(summary(report));
const stdio = await runStdioSoak({
  Client,
  StdioTransport,
  McpError,
  rounds: stdioRounds,
  seed,
});
console.log(stdioSummary(stdio));
const found = [...problems(report), ...stdioProblems(stdio)];
for (const problem of found) console.log(`PROBLEM: ${problem}`);
console.log(found.length === 0 ? 'soak: ok' : `soak: ${found.length} problem(s)`);
process.exitCode = found.length === 0 ? 0 : 1;
