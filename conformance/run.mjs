#!/usr/bin/env node
/**
 * `pnpm conformance`: runs the official MCP conformance suite's client scenarios
 * against our conformance app (conformance/client/), set by set: the frozen
 * requirement sets 2025-11-25 and 2026-07-28, then `--suite all`. Scenarios run
 * one or two at a time (the harness's own parallel suite mode is flaky on 2
 * cores), each under a watchdog. Prints a table per set and its totals, and
 * exits non-zero on any regression against conformance/expected-failures.yml.
 *
 *   node conformance/run.mjs [--set 2025-11-25|2026-07-28|all]... [--scenario NAME]...
 *                            [--jobs 1|2] [--json FILE]
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SETS, scenariosOf } from './runner/harness.mjs';
import { formatLine, formatSet, summaryLine, totalsOf } from './runner/report.mjs';
import { runScenario } from './runner/run-scenario.mjs';
import { judge, readBaseline } from './runner/verdict.mjs';

/** @typedef {import('./runner/report.mjs').ScenarioResult} ScenarioResult */

const root = dirname(dirname(fileURLToPath(import.meta.url)));
process.chdir(root);

const { values } = parseArgs({
  options: {
    set: { type: 'string', multiple: true },
    scenario: { type: 'string', multiple: true },
    jobs: { type: 'string', default: '2' },
    json: { type: 'string' },
  },
});
const sets = values.set ?? SETS;
const jobs = Math.min(2, Math.max(1, Number(values.jobs) || 1));
const baseline = readBaseline(join(root, 'conformance/expected-failures.yml'));
const outDir = join(root, '.tmp/conformance');

try {
  createRequire(import.meta.url).resolve('@mcp/core');
} catch {
  console.error('@mcp/core is not built: run `pnpm build` first');
  process.exit(2);
}
rmSync(outDir, { recursive: true, force: true });

/** Runs `tasks` with at most `limit` at once, in order of start. */
async function pool(/** @type {(() => Promise<void>)[]} */ tasks, /** @type {number} */ limit) {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]?.();
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

/** Runs one set and prints its lines as scenarios finish. */
async function runSet(/** @type {string} */ set) {
  const planned = scenariosOf(set).filter(({ name }) => !values.scenario || values.scenario.includes(name));
  console.log(
    `\n=== ${set === 'all' ? 'suite all' : `requirements ${set}`}: ${planned.length} scenarios, ${jobs} at a time`,
  );
  /** @type {ScenarioResult[]} */
  const results = [];
  const started = performance.now();
  await pool(
    planned.map(({ name, scored }, index) => async () => {
      const dir = join(outDir, set, String(index).padStart(2, '0'));
      mkdirSync(dir, { recursive: true });
      const run = await runScenario(set, name, dir);
      const result = {
        set,
        scenario: name,
        scored,
        ms: run.ms,
        verdict: judge(name, run.checks, baseline, run.killed, run.unhandled),
      };
      if (run.checks.length === 0) writeFileSync(join(dir, 'harness-output.txt'), run.output);
      results[index] = result;
      console.log(formatLine(result));
    }),
    jobs,
  );
  const ordered = results.filter(Boolean);
  const totals = totalsOf(set, ordered, performance.now() - started);
  console.log(formatSet(totals, ordered));
  return { totals, results: ordered };
}

const runs = [];
for (const set of sets) runs.push(await runSet(set));

console.log('\n=== conformance totals');
for (const { totals } of runs) console.log(summaryLine(totals));
const regressions = runs.flatMap(({ results }) =>
  results.filter((result) => result.verdict.outcome === 'fail' || result.verdict.outcome === 'stale'),
);
if (regressions.length > 0) {
  console.log('\nRegressions against conformance/expected-failures.yml:');
  for (const result of regressions) console.log(`  ${result.set}  ${formatLine(result)}`);
  console.log('(a STALE entry passes now: remove it from the baseline)');
}
if (values.json) {
  mkdirSync(dirname(values.json), { recursive: true });
  writeFileSync(values.json, JSON.stringify({ sets: runs.map(({ totals }) => totals), regressions }, null, 2));
}
process.exitCode = regressions.length > 0 ? 1 : 0;
