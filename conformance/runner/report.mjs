/**
 * The printed results: one line per scenario as it finishes, then per set a
 * table and its totals.
 */

/** @typedef {import('./verdict.mjs').Verdict} Verdict */

/**
 * @typedef {object} ScenarioResult
 * @property {string} set
 * @property {string} scenario
 * @property {boolean} scored
 * @property {number} ms
 * @property {Verdict} verdict
 */

/**
 * @typedef {object} SetTotals
 * @property {string} set
 * @property {number} total
 * @property {number} passed
 * @property {number} expected  failing, as the baseline expects
 * @property {number} failed    failing unexpectedly, or passing although the baseline lists it (stale)
 * @property {number} scoredTotal   scenarios the requirement set scores (all, for `all`)
 * @property {number} scoredPassed  of those, how many passed
 * @property {number} ms        wall time of the set
 */

const MARK = { pass: 'PASS', expected: 'xfail', fail: 'FAIL', stale: 'STALE' };

/** One line for a finished scenario. */
export function formatLine(/** @type {ScenarioResult} */ result) {
  const { verdict } = result;
  const checks = `${verdict.successes} ok, ${verdict.failures} failed${verdict.warnings ? `, ${verdict.warnings} warnings` : ''}`;
  const scored = result.scored ? '' : ' (not scored)';
  const reason = verdict.reason && verdict.outcome !== 'pass' ? `  ${verdict.reason}` : '';
  return `${MARK[verdict.outcome].padEnd(5)} ${result.scenario.padEnd(42)} ${(result.ms / 1000).toFixed(1).padStart(5)}s  ${checks}${scored}${reason}`;
}

/** Totals of one set. */
export function totalsOf(/** @type {string} */ set, /** @type {ScenarioResult[]} */ results, /** @type {number} */ ms) {
  const count = (/** @type {string[]} */ outcomes, list = results) =>
    list.filter((result) => outcomes.includes(result.verdict.outcome)).length;
  const scored = results.filter((result) => result.scored);
  return {
    set,
    total: results.length,
    passed: count(['pass']),
    expected: count(['expected']),
    failed: count(['fail', 'stale']),
    scoredTotal: scored.length,
    scoredPassed: count(['pass'], scored),
    ms,
  };
}

/** The table of one set, then its totals line. */
export function formatSet(/** @type {SetTotals} */ totals, /** @type {ScenarioResult[]} */ results) {
  const lines = [`\n--- ${label(totals.set)}: per scenario`, ...results.map(formatLine)];
  lines.push(summaryLine(totals));
  return lines.join('\n');
}

/** `requirements 2026-07-28: 8/39 passed (scored: 7/32), 31 expected failures, 0 failed (0m21s)` */
export function summaryLine(/** @type {SetTotals} */ totals) {
  const time = `${Math.floor(totals.ms / 60_000)}m${String(Math.floor((totals.ms % 60_000) / 1000)).padStart(2, '0')}s`;
  const scored = totals.scoredTotal < totals.total ? ` (scored: ${totals.scoredPassed}/${totals.scoredTotal})` : '';
  return `${label(totals.set)}: ${totals.passed}/${totals.total} passed${scored}, ${totals.expected} expected failures, ${totals.failed} failed (${time})`;
}

const label = (/** @type {string} */ set) => (set === 'all' ? 'suite all' : `requirements ${set}`);
