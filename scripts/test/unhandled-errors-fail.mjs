#!/usr/bin/env node
/**
 * Every test runner in `npm test` fails a run that leaves a promise rejection
 * unhandled or throws an uncaught exception. Each case below runs a fixture from
 * scripts/test/fixtures/ (outside every runner's own globs) under the configuration
 * its runner's step uses; the fixture's assertions pass, yet the run must exit
 * non-zero, the step's count function must count a failure, and the output must
 * name each of the fixture's errors (so it failed for that reason, not another).
 *
 * Covered: vitest (the root config), ai-sdk-ai7 (its config, on Node 22), workerd
 * (its vitest config; inside workerd the Worker's own check and the uncaught-exception
 * log), workerd-examples (an example-style Worker and Durable Object, started as the
 * examples' tests start theirs, under the root config), playwright (Node side and page side, no web servers), deno, bun, and the
 * conformance app (one scenario). Not run here: node22/node24, which use the root
 * config that the vitest and ai-sdk-ai7 cases already cover on Nodes 20 and 22, and
 * the plain Node scripts (spec-coverage, pack-check, conformance/run.mjs itself),
 * which Node ends with exit code 1 on an unhandled rejection; the last case checks
 * that every step's count function counts a failure for any non-zero exit.
 *
 *   node scripts/test/unhandled-errors-fail.mjs [--only NAME]... [--json FILE]
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { requireNodeBinary } from '../../runtimes/node/binaries.mjs';
import { captureCommand } from '../lib/run-command.mjs';
import { countConformance, countJunit, countPlaywright, countVitest, REPORTS, steps } from './steps.mjs';

/** One case's run may take this long on a loaded machine before it is killed and failed. */
const CASE_TIMEOUT_MS = 180_000;
const DIR = `${REPORTS}/unhandled-errors-fail`;
const FIXTURES = 'scripts/test/fixtures';

const { values } = parseArgs({ options: { only: { type: 'string', multiple: true }, json: { type: 'string' } } });

/** A vitest run of scripts/test/fixtures/vitest.config.ts standing in for the config `of`. */
function vitestCase(name, of, messages, node) {
  const report = `${DIR}/${name}.json`;
  const vitest = node ? [requireNodeBinary(node), 'node_modules/vitest/vitest.mjs'] : ['vitest'];
  return {
    name,
    args: ['exec', ...vitest, 'run', '--config', `${FIXTURES}/vitest.config.ts`, '--reporter=default'],
    report,
    reporterArgs: ['--reporter=json', `--outputFile.json=${report}`],
    env: { UNHANDLED_FIXTURE_OF: of },
    count: countVitest(report),
    messages,
  };
}

const cases = () => [
  vitestCase('vitest', 'main', ['vitest rejection', 'vitest timer throw', 'vitest late rejection']),
  vitestCase('ai-sdk-ai7', 'ai-sdk-ai7', ['vitest rejection', 'vitest timer throw', 'vitest late rejection'], 22),
  vitestCase('workerd', 'workerd', ['workerd rejection', 'workerd timer throw']),
  vitestCase('workerd-examples', 'workerd-examples', [
    'example Durable Object rejection',
    'example Worker timer throw',
  ]),
  {
    name: 'playwright',
    args: ['exec', 'playwright', 'test', '--config', `${FIXTURES}/playwright.config.ts`, '--reporter=list,json'],
    report: `${DIR}/playwright.json`,
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: `${DIR}/playwright.json` },
    count: countPlaywright(`${DIR}/playwright.json`),
    messages: ['page rejection', 'page timer throw', 'playwright node rejection'],
  },
  {
    name: 'deno',
    args: [
      'exec',
      'deno',
      'test',
      '--config',
      'runtimes/deno/deno.json',
      `--junit-path=${DIR}/deno.xml`,
      `${FIXTURES}/deno-rejection.fixture.js`,
      `${FIXTURES}/deno-timer-throw.fixture.js`,
    ],
    report: `${DIR}/deno.xml`,
    env: { DENO_NO_UPDATE_CHECK: '1' },
    count: countJunit(`${DIR}/deno.xml`),
    messages: ['deno rejection', 'deno timer throw'],
  },
  {
    name: 'bun',
    args: ['exec', 'bun', 'test', '--reporter=junit', `--reporter-outfile=${DIR}/bun.xml`],
    report: `${DIR}/bun.xml`,
    // The ./ matters: without it bun takes the path as a name filter.
    reporterArgs: [`./${FIXTURES}/bun-unhandled.fixture.js`],
    count: countJunit(`${DIR}/bun.xml`),
    messages: ['bun rejection', 'bun timer throw'],
  },
  {
    name: 'conformance',
    args: ['run', 'conformance', '--json', `${DIR}/conformance.json`, '--set', 'all', '--scenario', 'initialize'],
    report: `${DIR}/conformance.json`,
    env: {
      CONFORMANCE_CLIENT_COMMAND: `node --import ./${FIXTURES}/conformance-client-leak.mjs conformance/client/main.mjs`,
    },
    count: countConformance(`${DIR}/conformance.json`),
    messages: ['conformance app left this rejection unhandled'],
  },
];

/** What is wrong with one case's run, or an empty list. */
async function check(testCase) {
  mkdirSync(DIR, { recursive: true });
  rmSync(testCase.report, { force: true });
  const { code, output } = await captureCommand('pnpm', [...testCase.args, ...(testCase.reporterArgs ?? [])], {
    env: { ...process.env, ...testCase.env, FORCE_COLOR: '0', NO_COLOR: '1' },
    timeoutMs: CASE_TIMEOUT_MS,
  });
  const counted = testCase.count(code);
  const problems = [];
  if (code === 0) problems.push('the run exited 0');
  if (counted.failed < 1) problems.push(`the step counted ${counted.passed} passed and no failure`);
  for (const message of testCase.messages) {
    if (!output.includes(`fixture: ${message}`)) problems.push(`the output does not name "fixture: ${message}"`);
  }
  return { code, counted, problems, output };
}

/** Every runner step counts at least one failure when its command exits non-zero, whatever its report says. */
function checkCounting() {
  const problems = steps
    .filter((step) => step.kind === 'runner')
    .filter((step) => step.count(1).failed < 1)
    .map((step) => `${step.name} counts no failure for exit code 1`);
  return { code: 1, counted: { passed: 0, failed: 1 }, problems, output: '' };
}

const selected = values.only ?? [];
const started = performance.now();
const results = [];
for (const testCase of [...cases(), { name: 'counting' }]) {
  if (selected.length > 0 && !selected.includes(testCase.name)) continue;
  const caseStarted = performance.now();
  let result;
  try {
    result = testCase.name === 'counting' ? checkCounting() : await check(testCase);
  } catch (error) {
    result = { code: 1, counted: { passed: 0, failed: 0 }, problems: [String(error)], output: '' };
  }
  const took = ((performance.now() - caseStarted) / 1000).toFixed(1);
  if (result.problems.length === 0) {
    console.log(`ok    ${testCase.name.padEnd(16)} fails as it must (exit ${result.code}, ${took}s)`);
  } else {
    console.log(`FAIL  ${testCase.name.padEnd(16)} ${result.problems.join('; ')} (${took}s)`);
    if (result.output) console.log(result.output.split('\n').slice(-80).join('\n'));
  }
  results.push({ name: testCase.name, problems: result.problems });
}

const failed = results.filter((result) => result.problems.length > 0).length;
console.log(
  `${results.length - failed} of ${results.length} runners fail on an unhandled rejection or an uncaught exception ` +
    `(${((performance.now() - started) / 1000).toFixed(1)}s)`,
);
if (values.json) {
  mkdirSync(dirname(values.json), { recursive: true });
  writeFileSync(values.json, JSON.stringify({ passed: results.length - failed, failed, results }, null, 2));
}
process.exitCode = failed > 0 ? 1 : 0;
