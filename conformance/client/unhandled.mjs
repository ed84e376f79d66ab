/**
 * The conformance app fails its scenario on a promise rejection it leaves
 * unhandled or an exception it does not catch, even one left behind by a step
 * that went well (the harness's checks only see the wire, and a fast exit hides
 * what comes late). Each is logged on stderr on a line that starts with
 * UNHANDLED_MARK, which conformance/runner/run-scenario.mjs looks for. The run
 * goes on after one, so the checks still show how far the app got.
 */

/** The start of the stderr line that reports one unhandled rejection or uncaught exception. */
export const UNHANDLED_MARK = '[app] unhandled:';

/** The app's exit code when it saw one (EX_SOFTWARE). */
export const UNHANDLED_EXIT = 70;

/** How long the app waits before it exits, for rejections its last steps left behind. */
const SETTLE_MS = 50;

/**
 * Starts watching; `exitCode(code)` waits SETTLE_MS, then answers `code`, or
 * UNHANDLED_EXIT if anything went unhandled meanwhile.
 */
export function watchUnhandled() {
  let seen = 0;
  const report = (/** @type {string} */ kind) => (/** @type {unknown} */ error) => {
    seen += 1;
    process.stderr.write(`${UNHANDLED_MARK} ${kind}: ${error instanceof Error ? error.stack : String(error)}\n`);
  };
  process.on('unhandledRejection', report('rejection'));
  process.on('uncaughtException', report('exception'));
  return {
    async exitCode(/** @type {number} */ code) {
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      return seen > 0 ? UNHANDLED_EXIT : code;
    },
  };
}
