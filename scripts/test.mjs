#!/usr/bin/env node
// `npm test` / `pnpm test`: sets up a fresh clone (pnpm, packages, Chromium), builds,
// then runs every check and test runner, a few at a time, and ends with one
// `N passed, M failed` line.
import { repoRoot } from './lib/repo-root.mjs';
import { captureCommand } from './lib/run-command.mjs';
import { jobsFrom, schedule } from './test/schedule.mjs';
import { steps } from './test/steps.mjs';

process.chdir(repoRoot);

/** The whole run must fit well inside CI's 90 minutes; steps past this budget are failed, not run. */
const BUDGET_MS = 60 * 60_000;
/** No single step may take longer than this. */
const STEP_MS = 20 * 60_000;
/**
 * How many steps run at once (MCP_TEST_JOBS, 1 to 8; default 3). Most steps wait on
 * sockets, timers and child processes more than on a CPU, so three keep two cores busy.
 */
let JOBS;
try {
  JOBS = jobsFrom(process.env.MCP_TEST_JOBS);
} catch (error) {
  console.error(error.message);
  process.exit(2);
}

const seconds = (start) => `${((performance.now() - start) / 1000).toFixed(1)}s`;

const labelOf = (step) => (step.kind === 'setup' ? step.name : `${step.name}: ${step.command} ${step.args.join(' ')}`);

/**
 * Runs one step and returns its counts. A setup step shows its output as it goes and
 * may hand back a new environment for the steps after it; any other step's output is
 * held and printed whole, under its header, when it ends, so steps running at once
 * do not interleave.
 */
async function runStep(step, timeoutMs) {
  if (step.kind === 'setup') {
    console.log(`\n=== ${labelOf(step)}`);
    const result = await step.prepare(env, { timeoutMs });
    env = result.env;
    return { passed: 0, failed: result.ok ? 0 : 1 };
  }
  console.log(`--- ${step.name} started`);
  let code;
  let output;
  try {
    step.before?.();
    ({ code, output } = await captureCommand(step.command, step.args, { env: { ...env, ...step.env }, timeoutMs }));
  } catch (error) {
    code = 1;
    output = String(error?.stack ?? error);
  }
  console.log(`\n=== ${labelOf(step)}`);
  if (output !== '') process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
  if (step.kind === 'runner') return step.count(code);
  return { passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 };
}

/** Runs `step` within what is left of the budget and prints its result line; never rejects. */
async function runWithinBudget(step) {
  const start = performance.now();
  const remaining = BUDGET_MS - (start - started);
  let outcome;
  try {
    if (remaining <= 0) throw new Error(`not run: the ${BUDGET_MS / 60_000} min budget is spent`);
    outcome = await runStep(step, Math.min(STEP_MS, remaining));
  } catch (error) {
    console.error(`\n=== ${labelOf(step)}`);
    console.error(error);
    outcome = { passed: 0, failed: 1 };
  }
  const status = outcome.failed > 0 ? 'FAILED' : 'ok';
  const counts = step.kind === 'runner' ? ` (${outcome.passed} passed, ${outcome.failed} failed)` : '';
  console.log(`=== ${step.name} ${status}${counts} in ${seconds(start)}`);
  return { name: step.name, took: seconds(start), ...outcome };
}

let env = { ...process.env };
const started = performance.now();
console.log(`npm test: ${steps.length} steps, ${JOBS} at a time (MCP_TEST_JOBS)`);
const results = await schedule(steps, JOBS, runWithinBudget);

const passed = results.reduce((sum, r) => sum + r.passed, 0);
const failed = results.reduce((sum, r) => sum + r.failed, 0);
const failedSteps = results.filter((r) => r.failed > 0).map((r) => r.name);
console.log(`\n=== summary (${seconds(started)} in all)`);
for (const r of results) {
  const counts = r.passed + r.failed > 0 ? `  ${r.passed} passed, ${r.failed} failed` : '';
  console.log(`${r.failed > 0 ? 'FAIL' : 'ok  '}  ${r.name.padEnd(16)} ${r.took.padStart(7)}${counts}`);
}
if (failedSteps.length > 0) console.log(`\nFailed steps: ${failedSteps.join(', ')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
