/**
 * Preloaded (`node --import`) into every bridge the tests spawn: an unhandled
 * rejection or an uncaught exception prints one line starting with
 * `CRASH_MARKER` on stderr and ends the process with `CRASH_EXIT_CODE`, so the
 * harness (bridge-peers.ts) can fail the test that caused it, even when the
 * test never looked at that request or the process exited after its last
 * assertion. Node's own default would also exit, but its output has no shape
 * a test can rely on.
 */

export const CRASH_MARKER = 'mcp-bridge-test: crashed on an';
/** Not one the bridge uses (0, 1, 2, 130). */
export const CRASH_EXIT_CODE = 70;

function crash(kind, reason) {
  const detail = reason instanceof Error ? (reason.stack ?? reason.message) : String(reason);
  process.stderr.write(`${CRASH_MARKER} ${kind}: ${detail}\n`);
  process.exit(CRASH_EXIT_CODE);
}

process.on('unhandledRejection', (reason) => crash('unhandled rejection', reason));
process.on('uncaughtException', (error) => crash('uncaught exception', error));
