/**
 * What a scenario's checks mean, judged against the expected-failures baseline
 * (the harness's `--expected-failures` file: `client:` entries naming a whole
 * scenario, or `scenario:check-id` for one check).
 */
import { readFileSync } from 'node:fs';

/** @typedef {import('./run-scenario.mjs').Check} Check */

/**
 * The `client:` entries of a baseline file. The file is the harness's format;
 * only its flat string lists are read, so no YAML library is needed.
 * @returns {Set<string>}
 */
export function readBaseline(/** @type {string} */ file) {
  const entries = new Set();
  let section = '';
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const line = raw.replace(/\s+#.*$/, '').trimEnd();
    if (!line || line.startsWith('#')) continue;
    const key = /^(\S[^:]*):\s*$/.exec(line);
    if (key) {
      section = key[1] ?? '';
      continue;
    }
    const item = /^\s+-\s+['"]?([^'"]+?)['"]?$/.exec(line);
    if (item && section === 'client') entries.add(item[1]);
  }
  return entries;
}

/**
 * One scenario's outcome:
 * - `pass`: at least one SUCCESS and no FAILURE;
 * - `expected`: it does not pass, and the baseline excuses every failing check;
 * - `fail`: it does not pass and the baseline does not excuse it, or the client left a
 *   rejection unhandled or an exception uncaught (which no baseline excuses);
 * - `stale`: it passes, yet the baseline still lists it (or one of the listed checks succeeded).
 * @typedef {'pass' | 'expected' | 'fail' | 'stale'} Outcome
 */

/**
 * @typedef {object} Verdict
 * @property {Outcome} outcome
 * @property {number} successes
 * @property {number} failures
 * @property {number} warnings
 * @property {string} reason  the first failing checks, or why there is no verdict
 */

/**
 * Judges one scenario run.
 * @param {string} scenario
 * @param {Check[]} checks
 * @param {Set<string>} baseline
 * @param {boolean} killed  the watchdog had to end the run
 * @param {string[]} [unhandled]  the client's reports of what it left unhandled
 * @returns {Verdict}
 */
export function judge(scenario, checks, baseline, killed, unhandled = []) {
  const count = (/** @type {string} */ status) => checks.filter((check) => check.status === status).length;
  const failing = checks.filter((check) => check.status === 'FAILURE');
  const successes = count('SUCCESS');
  const passes = successes > 0 && failing.length === 0 && !killed;
  const reason = killed
    ? 'killed by the watchdog'
    : failing.length > 0
      ? [...new Set(failing.map((check) => `${check.id}: ${check.errorMessage ?? check.description ?? ''}`))]
          .slice(0, 3)
          .join(' | ')
      : successes === 0
        ? checks.length === 0
          ? 'no checks recorded'
          : 'no check succeeded (all skipped)'
        : '';
  const base = { successes, failures: failing.length, warnings: count('WARNING'), reason };
  if (unhandled.length > 0) return { ...base, outcome: 'fail', reason: unhandled.slice(0, 3).join(' | ') };
  const wholeScenario = baseline.has(scenario);
  const excusedChecks = new Set(
    [...baseline].filter((entry) => entry.startsWith(`${scenario}:`)).map((entry) => entry.slice(scenario.length + 1)),
  );
  if (passes) {
    const staleCheck = [...excusedChecks].some((id) =>
      checks.some((check) => check.id === id && check.status === 'SUCCESS'),
    );
    return { ...base, outcome: wholeScenario || staleCheck ? 'stale' : 'pass' };
  }
  if (wholeScenario) return { ...base, outcome: 'expected' };
  const unexcused = failing.filter((check) => !excusedChecks.has(check.id));
  const excused = excusedChecks.size > 0 && unexcused.length === 0 && failing.length > 0 && !killed;
  return { ...base, outcome: excused ? 'expected' : 'fail' };
}
