#!/usr/bin/env node
/**
 * The client benchmark: `node bench/run.mjs [--quick | --long] [--reps N] [--clients a,b] [--transports x,y]`.
 *
 * Starts the benchmark servers, then runs every client, each in its own
 * process, alternating clients within each round (A B C … A B C …) so drift
 * on a busy machine falls on all of them alike. Writes the Markdown report to
 * bench/results/latest.md and the raw figures beside it as latest.json; a
 * `--long` run (warmed steady state, bench/lib/plan.mjs) to long.md and long.json.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CLIENTS } from './clients/adapter.mjs';
import { PLANS, TRANSPORTS } from './lib/plan.mjs';
import { NODE, runWorker, startHttpServer } from './lib/processes.mjs';
import { renderReport } from './lib/report.mjs';

const here = (/** @type {string} */ path) => fileURLToPath(new URL(path, import.meta.url));
const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    long: { type: 'boolean', default: false },
    reps: { type: 'string' },
    clients: { type: 'string' },
    transports: { type: 'string' },
  },
  strict: true,
});

for (const dist of ['../packages/core/dist/index.js', '../packages/node-stdio/dist/index.js']) {
  if (!existsSync(here(dist))) {
    process.stderr.write(`bench: ${dist.slice(3)} is missing; run \`pnpm build\` first\n`);
    process.exit(1);
  }
}

if (args.quick && args.long) {
  process.stderr.write('bench: --quick and --long are different runs; give one\n');
  process.exit(2);
}
const mode = args.quick ? 'quick' : args.long ? 'long' : 'full';
const plan = PLANS[mode];
const reps = args.reps ? Number(args.reps) : plan.reps;
const clients = args.clients ? args.clients.split(',') : [...CLIENTS];
const transports = /** @type {typeof TRANSPORTS} */ (args.transports ? args.transports.split(',') : [...TRANSPORTS]);
if (!clients.includes('floor')) clients.unshift('floor');

const started = Date.now();
const loadBefore = loadavg()
  .map((n) => n.toFixed(2))
  .join(' ');
const server = await startHttpServer();
const stdioTarget = { kind: 'stdio', command: NODE, args: [here('./servers/stdio.mjs')] };
/** @param {string} transport */
const targetOf = (transport) =>
  transport === 'stdio' ? stdioTarget : { kind: 'http', mode: transport, url: `${server.url}/${transport}` };

/** @type {import('./lib/report.mjs').Sample[]} */
const samples = [];
/** @type {string[]} */
const failures = [];
let rounds = 0;
let slowest = 0;
try {
  for (let rep = 0; rep < reps; rep++) {
    const roundStart = Date.now();
    if (rep > 0 && roundStart + slowest - started > plan.budgetMs) {
      process.stderr.write(`bench: a round ${rep + 1} would overrun the time budget; stopping after ${rep}\n`);
      break;
    }
    // Rotate the order each round so no client always runs first (or right after the floor).
    const order = clients.map((_, i) => /** @type {string} */ (clients[(i + rep) % clients.length]));
    for (const transport of transports) {
      for (const phase of plan.phases) {
        for (const client of order) {
          if (plan.measures && !plan.measures(transport, client)) continue;
          const spec = { client, phase, target: targetOf(transport), params: plan.params(transport) };
          const began = Date.now();
          const data = await runWorker(spec);
          if (typeof data.error === 'string')
            failures.push(`round ${rep + 1}, ${transport}, ${client}, ${phase}: ${data.error}`);
          else samples.push({ rep, transport, client, phase, data });
          const seconds = ((Date.now() - began) / 1000).toFixed(1);
          process.stderr.write(
            `bench: round ${rep + 1}/${reps} ${transport} ${phase} ${client} ${seconds} s${data.error ? ' FAILED' : ''}\n`,
          );
        }
      }
    }
    rounds = rep + 1;
    slowest = Math.max(slowest, Date.now() - roundStart);
  }
} finally {
  server.close();
}

/** @param {string} name */
const versionOf = (name) => {
  try {
    return JSON.parse(readFileSync(here(`./node_modules/${name}/package.json`), 'utf8')).version;
  } catch {
    return '?';
  }
};
const meta = {
  date: new Date().toISOString(),
  mode: `${mode} (${rounds} of ${reps} rounds; workload sizes in bench/lib/plan.mjs)`,
  machine: `${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} cores, Node ${execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim()} (${NODE})`,
  'load average (1/5/15 min)': `${loadBefore} before, ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')} after`,
  duration: `${((Date.now() - started) / 1000).toFixed(0)} s`,
  clients: [
    '**floor** (hand-written: fetch + JSON.parse / raw pipe)',
    '**@mcp** (packages/*/dist)',
    `**sdk-v2** @modelcontextprotocol/client ${versionOf('@modelcontextprotocol/client')}`,
    `**sdk-v1** @modelcontextprotocol/sdk ${versionOf('@modelcontextprotocol/sdk')}`,
    `**ai-sdk** @ai-sdk/mcp ${versionOf('@ai-sdk/mcp')} (2.x declares Node ≥ 22)`,
  ].join(', '),
};
const report = renderReport({ meta, samples, failures });
mkdirSync(here('./results'), { recursive: true });
const name = mode === 'long' ? 'long' : 'latest';
writeFileSync(here(`./results/${name}.md`), report);
writeFileSync(here(`./results/${name}.json`), `${JSON.stringify({ meta, samples, failures }, null, 1)}\n`);
process.stdout.write(report);
process.stderr.write(`bench: report written to bench/results/${name}.md (${meta.duration})\n`);
