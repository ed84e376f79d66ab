import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { requireNodeBinary } from '../../runtimes/node/binaries.mjs';
import { ensureChromium, ensureInstalled, ensurePnpm, ensureRedisServer } from '../lib/setup.mjs';

/** Where runners write their machine-readable reports (gitignored). */
export const REPORTS = '.tmp/test-reports';
const VITEST_JSON = `${REPORTS}/vitest.json`;
const PLAYWRIGHT_JSON = `${REPORTS}/playwright.json`;
const WORKERD_JSON = `${REPORTS}/workerd.json`;
const AI_SDK_AI7_JSON = `${REPORTS}/ai-sdk-ai7.json`;
const DENO_JUNIT = `${REPORTS}/deno.xml`;
const BUN_JUNIT = `${REPORTS}/bun.xml`;
const CONFORMANCE_JSON = `${REPORTS}/conformance.json`;
const SPEC_COVERAGE_JSON = `${REPORTS}/spec-coverage.json`;
const PACK_CHECK_JSON = `${REPORTS}/pack-check.json`;
const UNHANDLED_JSON = `${REPORTS}/unhandled-errors-fail.json`;

/** What most steps wait for: the packages built (everything before the build waits for the install). */
const BUILT = ['build'];
/** What a step that reads only sources waits for. */
const INSTALLED = ['install'];
/** What the setup steps that may install Debian packages hold: apt takes one dpkg lock at a time. */
const APT = ['apt'];

/**
 * Each step is one of:
 * - `setup`: prepares the machine; counted only when it fails.
 * - `check`: one pass/fail check (lint, typecheck, build).
 * - `runner`: a test runner; `count(exitCode)` reads its own report for the totals.
 * Steps run a few at a time (scripts/test/schedule.mjs): each names in `after` the
 * steps it needs done first (a failed one counts as done), and in `shares` what it
 * must not use while another step does (a folder both write, a port both take).
 * Adding a runner is one line in `steps` below.
 */
const setup = (name, prepare, { after = [], shares = [] } = {}) => ({ kind: 'setup', name, prepare, after, shares });
const check = (name, args, { after = BUILT, shares = [] } = {}) => ({
  kind: 'check',
  name,
  command: 'pnpm',
  args,
  after,
  shares,
});
const runner = (name, args, count, { env = {}, before, after = BUILT, shares = [] } = {}) => ({
  kind: 'runner',
  name,
  command: 'pnpm',
  args,
  count,
  env,
  before,
  after,
  shares,
});

function readJson(file) {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** A runner that died without a report, or failed with nothing counted, still counts as one failure. */
function atLeastOneFailure(exitCode, counts) {
  if (exitCode !== 0 && counts.failed === 0) return { ...counts, failed: 1 };
  return counts;
}

/** Totals from vitest's JSON reporter at `file`; a test file that fails to load counts as a failure. */
export const countVitest = (file) => (exitCode) => {
  const report = readJson(file);
  if (!report) return atLeastOneFailure(exitCode, { passed: 0, failed: 0 });
  const brokenFiles = (report.testResults ?? []).filter(
    (file) => file.status === 'failed' && (file.assertionResults ?? []).length === 0,
  ).length;
  return atLeastOneFailure(exitCode, {
    passed: report.numPassedTests ?? 0,
    failed: (report.numFailedTests ?? 0) + brokenFiles,
  });
};

/** Totals from Playwright's JSON reporter at `file`; a flaky test passed on retry, a global error is a failure. */
export const countPlaywright = (file) => (exitCode) => {
  const report = readJson(file);
  if (!report?.stats) return atLeastOneFailure(exitCode, { passed: 0, failed: 0 });
  const { expected = 0, unexpected = 0, flaky = 0 } = report.stats;
  const globalErrors = (report.errors ?? []).length;
  return atLeastOneFailure(exitCode, { passed: expected + flaky, failed: unexpected + globalErrors });
};

/**
 * Totals from a JUnit XML report (deno test --junit-path, bun test --reporter=junit):
 * a testcase with <failure> or <error> failed, one with <skipped> is not counted.
 */
export const countJunit = (file) => (exitCode) => {
  if (!existsSync(file)) return atLeastOneFailure(exitCode, { passed: 0, failed: 0 });
  let passed = 0;
  let failed = 0;
  const xml = readFileSync(file, 'utf8');
  for (const [, body = ''] of xml.matchAll(/<testcase\b[^>]*?(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    if (/<(failure|error)\b/.test(body)) failed += 1;
    else if (!/<skipped\b/.test(body)) passed += 1;
  }
  return atLeastOneFailure(exitCode, { passed, failed });
};

/**
 * Totals from conformance/run.mjs: each passing scenario of each set passed; an
 * unexpected failure or a stale baseline entry failed. A failure the baseline
 * (conformance/expected-failures.yml) expects counts as neither: the run lists it.
 */
export const countConformance = (file) => (exitCode) => {
  const report = readJson(file);
  if (!Array.isArray(report?.sets)) return atLeastOneFailure(exitCode, { passed: 0, failed: 0 });
  const sum = (key) => report.sets.reduce((total, set) => total + set[key], 0);
  return atLeastOneFailure(exitCode, { passed: sum('passed'), failed: sum('failed') });
};

/**
 * Totals from a report that counts for itself (`{ passed, failed }`): scripts/spec-coverage.mjs (each
 * table row whose named test exists, or whose reason is given, passed) and scripts/publish/pack-check.mjs.
 */
export const countReport = (file) => (exitCode) => {
  const report = readJson(file);
  if (typeof report?.passed !== 'number') return atLeastOneFailure(exitCode, { passed: 0, failed: 0 });
  return atLeastOneFailure(exitCode, { passed: report.passed, failed: report.failed });
};

/**
 * The shared scenarios of runtimes/node on another Node: vitest itself runs on that binary
 * (runtimes/node/package.json holds Node 22 and 24), so its test workers do too.
 */
const nodeRuntime = (major) => {
  const report = `${REPORTS}/node${major}.json`;
  return runner(
    `node${major}`,
    [
      'exec',
      `runtimes/node/node_modules/node${major}/bin/node`,
      'node_modules/vitest/vitest.mjs',
      'run',
      'runtimes/node',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ],
    countVitest(report),
    { env: { MCP_NODE_MAJOR: String(major) }, before: withNode(major, fresh(report)) },
  );
};

/** Before a runner on runtimes/node's Node `major`: fails the step with "no Node 22 binary for <platform>" when there is none. */
const withNode = (major, before) => () => {
  requireNodeBinary(major);
  before();
};

/** Before a runner: no stale report, and the folder exists (bun does not create it). */
const fresh = (file) => () => {
  mkdirSync(dirname(file), { recursive: true });
  rmSync(file, { force: true });
};

/**
 * Everything `npm test` runs. The order is the priority: among the steps that may start,
 * the earliest in the list does, so the long runners go first. Every step runs even if
 * an earlier one failed.
 */
export const steps = [
  setup('pnpm', ensurePnpm),
  setup('install', ensureInstalled, { after: ['pnpm'] }),
  check('build', ['-r', '--no-bail', '--filter', './packages/**', 'build'], { after: INSTALLED }),
  // The store tests (Redis) start their own redis-server: installed from Debian's packages when missing.
  setup('redis-server', ensureRedisServer, { after: ['pnpm'], shares: APT }),
  runner(
    'vitest',
    ['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${VITEST_JSON}`],
    countVitest(VITEST_JSON),
    { before: fresh(VITEST_JSON), after: [...BUILT, 'redis-server'] },
  ),
  check('lint', ['exec', 'biome', 'check', '.'], { after: INSTALLED }),
  // The API reference (typedoc.json): fails on an undocumented public export or a broken link.
  check('docs', ['run', 'docs'], { after: INSTALLED }),
  // Every TypeScript project at once (tsconfig.json's references): the packages with their tests,
  // e2e and the scripts, runtimes, conformance and the examples. e2e reads the built declarations.
  check('typecheck', ['exec', 'tsc', '-b']),
  // Every TypeScript and JavaScript snippet in the README, docs/ and the packages' and examples' READMEs
  // type-checks against the packages' sources; those marked runnable run against the test servers (needs the build).
  check('snippets', ['exec', 'node', 'scripts/docs/check-snippets.mjs']),
  // docs/spec-coverage.md: every test the table names as proof still exists under that exact title.
  runner(
    'spec-coverage',
    ['exec', 'node', 'scripts/spec-coverage.mjs', '--json', SPEC_COVERAGE_JSON],
    countReport(SPEC_COVERAGE_JSON),
    { before: fresh(SPEC_COVERAGE_JSON), after: INSTALLED },
  ),
  setup('chromium', ensureChromium, { after: INSTALLED, shares: APT }),
  runner('playwright', ['exec', 'playwright', 'test', '--reporter=list,json'], countPlaywright(PLAYWRIGHT_JSON), {
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: PLAYWRIGHT_JSON },
    before: fresh(PLAYWRIGHT_JSON),
    after: [...BUILT, 'chromium'],
  }),
  // The shared end-to-end scenarios (runtimes/scenarios.js) in the other runtimes; Node runs them in vitest.
  runner(
    'workerd',
    [
      'exec',
      'vitest',
      'run',
      '--config',
      'runtimes/workerd/vitest.config.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${WORKERD_JSON}`,
    ],
    countVitest(WORKERD_JSON),
    { before: fresh(WORKERD_JSON) },
  ),
  // @mcp/ai-sdk's tests again against ai 7, which needs Node 22 (the main vitest run is Node 20 and ai 6).
  runner(
    'ai-sdk-ai7',
    [
      'exec',
      'runtimes/node/node_modules/node22/bin/node',
      'node_modules/vitest/vitest.mjs',
      'run',
      '--config',
      'packages/ai-sdk/test/ai7/vitest.config.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${AI_SDK_AI7_JSON}`,
    ],
    countVitest(AI_SDK_AI7_JSON),
    { before: withNode(22, fresh(AI_SDK_AI7_JSON)) },
  ),
  nodeRuntime(22),
  nodeRuntime(24),
  runner(
    'deno',
    [
      'exec',
      'deno',
      'test',
      '--config',
      'runtimes/deno/deno.json',
      '--allow-net=127.0.0.1',
      '--allow-read',
      '--allow-env',
      '--allow-run=node',
      `--junit-path=${DENO_JUNIT}`,
      'runtimes/deno/',
    ],
    countJunit(DENO_JUNIT),
    { env: { DENO_NO_UPDATE_CHECK: '1' }, before: fresh(DENO_JUNIT) },
  ),
  runner(
    'bun',
    ['exec', 'bun', 'test', '--reporter=junit', `--reporter-outfile=${BUN_JUNIT}`, './runtimes/bun'],
    countJunit(BUN_JUNIT),
    { before: fresh(BUN_JUNIT) },
  ),
  // What npm users get: the packed tarballs installed in a fresh project (registry deps), loaded, typed, linted.
  runner(
    'pack-check',
    ['exec', 'node', 'scripts/publish/pack-check.mjs', '--json', PACK_CHECK_JSON],
    countReport(PACK_CHECK_JSON),
    { before: fresh(PACK_CHECK_JSON) },
  ),
  // The official MCP conformance suite's client scenarios (requirement sets 2025-11-25, 2026-07-28, suite all).
  // conformance/run.mjs empties .tmp/conformance when it starts, so the two steps that run it take turns.
  runner('conformance', ['run', 'conformance', '--json', CONFORMANCE_JSON], countConformance(CONFORMANCE_JSON), {
    before: fresh(CONFORMANCE_JSON),
    shares: ['.tmp/conformance'],
  }),
  // Each runner above, on a fixture that leaves an unhandled rejection or throws from a timer, must fail.
  runner(
    'unhandled-errors-fail',
    ['exec', 'node', 'scripts/test/unhandled-errors-fail.mjs', '--json', UNHANDLED_JSON],
    countReport(UNHANDLED_JSON),
    { before: fresh(UNHANDLED_JSON), after: [...BUILT, 'chromium'], shares: ['.tmp/conformance'] },
  ),
];
