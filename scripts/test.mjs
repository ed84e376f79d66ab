#!/usr/bin/env node
// `npm test` / `pnpm test`: sets up a fresh clone (pnpm, packages, Chromium), builds,
// then runs every check and test runner, and ends with one `N passed, M failed` line.
import { repoRoot } from './lib/repo-root.mjs';
import { runCommand } from './lib/run-command.mjs';
import { steps } from './test/steps.mjs';

process.chdir(repoRoot);

/** The whole run must fit well inside CI's 90 minutes; steps past this budget are failed, not run. */
const BUDGET_MS = 60 * 60_000;
/** No single step may take longer than this. */
const STEP_MS = 20 * 60_000;

const seconds = (start) => `${((performance.now() - start) / 1000).toFixed(1)}s`;

/** Runs one step and returns its counts; a setup step may hand back a new environment. */
async function runStep(step, env, timeoutMs) {
  if (step.kind === 'setup') {
    const result = await step.prepare(env, { timeoutMs });
    return { env: result.env, passed: 0, failed: result.ok ? 0 : 1 };
  }
  step.before?.();
  const code = await runCommand(step.command, step.args, { env: { ...env, ...step.env }, timeoutMs });
  if (step.kind === 'runner') return { env, ...step.count(code) };
  return { env, passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 };
}

let env = { ...process.env };
const results = [];
const started = performance.now();
for (const step of steps) {
  const label = step.kind === 'setup' ? step.name : `${step.name}: ${step.command} ${step.args.join(' ')}`;
  console.log(`\n=== ${label}`);
  const start = performance.now();
  let outcome;
  const remaining = BUDGET_MS - (performance.now() - started);
  try {
    if (remaining <= 0) throw new Error(`not run: the ${BUDGET_MS / 60_000} min budget is spent`);
    outcome = await runStep(step, env, Math.min(STEP_MS, remaining));
  } catch (error) {
    console.error(error);
    outcome = { env, passed: 0, failed: 1 };
  }
  env = outcome.env;
  const status = outcome.failed > 0 ? 'FAILED' : 'ok';
  const counts = step.kind === 'runner' ? ` (${outcome.passed} passed, ${outcome.failed} failed)` : '';
  console.log(`=== ${step.name} ${status}${counts} in ${seconds(start)}`);
  results.push({ name: step.name, took: seconds(start), ...outcome });
}

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
