/* @ts-self-types="./fail-on-unhandled.d.ts" */
/**
 * Runs inside workerd. workerd neither fails a request nor prints anything when a
 * promise rejection goes unhandled (only an attached inspector would see it), so
 * a Worker that runs a test wraps it here: a rejection left unhandled while the
 * test ran, or just after, turns a passing outcome into a failing one.
 */
import { describeError } from '../run-scenario.js';

/** How long to wait after the run for rejections that its last steps left behind. */
const SETTLE_MS = 50;

const rejections = [];
// Listening from the module's start, so nothing between two requests is missed.
globalThis.addEventListener('unhandledrejection', (event) => rejections.push(describeError(event.reason)));

/** `run()`'s outcome, or `{ ok: false, error }` naming every rejection left unhandled meanwhile. */
export async function failOnUnhandled(run) {
  const outcome = await run();
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const seen = rejections.splice(0);
  if (seen.length === 0) return outcome;
  const also = outcome.ok ? '' : `\n\nThe run itself failed too:\n${outcome.error}`;
  return { ok: false, error: `unhandled rejection(s) in workerd:\n${seen.join('\n')}${also}` };
}
