import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * An exception a Worker throws outside any request's promise chain (in a timer
 * or an event listener) reaches no request and fails none; workerd reports it
 * only in its verbose log, on a line that starts this way.
 */
const UNCAUGHT = /uncaught exception; source = /;

/** A Worker running in workerd, and workerd's reports of the exceptions it did not catch, for a test to assert empty. */
export interface StartedWorker {
  readonly mf: Miniflare;
  readonly uncaught: string[];
}

/**
 * Starts the Worker at `script` in workerd, as the workerd runner does: ES modules
 * loaded from the repository, workerd's output printed as Miniflare prints it.
 * Unhandled rejections are the Worker's own to report (runtimes/workerd/fail-on-unhandled.js).
 */
export function startWorker(script: URL): StartedWorker {
  const uncaught: string[] = [];
  const handleRuntimeStdio = (stdout: Readable, stderr: Readable) => {
    createInterface(stdout).on('line', (line) => console.log(line));
    createInterface(stderr).on('line', (line) => {
      console.error(line);
      if (UNCAUGHT.test(line)) uncaught.push(line);
    });
  };
  const mf = new Miniflare({
    modules: true,
    scriptPath: fileURLToPath(script),
    modulesRoot: repoRoot,
    // Miniflare's default rules read *.js as CommonJS; every file the worker loads is an ES module.
    modulesRules: [{ type: 'ESModule', include: ['**/*.js', '**/*.mjs'] }],
    compatibilityDate: '2025-09-01',
    // Without it, workerd reports a rejection as unhandled even when a handler is attached
    // later in the same microtask checkpoint: cancelling a fetch body with a read pending
    // does that with a promise of its own. The flag is on by default from 2026-03-03.
    compatibilityFlags: ['unhandled_rejection_after_microtask_checkpoint'],
    verbose: true,
    handleRuntimeStdio,
  });
  return { mf, uncaught };
}
