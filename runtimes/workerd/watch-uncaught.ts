import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { MiniflareOptions } from 'miniflare';

/**
 * An exception a Worker throws outside any request's promise chain (in a timer
 * or an event listener) reaches no request and fails none; workerd reports it
 * only in its verbose log, as a line that starts this way.
 */
const UNCAUGHT = /uncaught exception; source = /;

/**
 * Miniflare options that print workerd's output as Miniflare does by default and
 * also collect workerd's reports of uncaught exceptions into `uncaught`, for a
 * test to assert empty.
 */
export function watchUncaught(): {
  uncaught: string[];
  options: Pick<MiniflareOptions, 'verbose' | 'handleRuntimeStdio'>;
} {
  const uncaught: string[] = [];
  const handleRuntimeStdio = (stdout: Readable, stderr: Readable) => {
    createInterface(stdout).on('line', (line) => console.log(line));
    createInterface(stderr).on('line', (line) => {
      console.error(line);
      if (UNCAUGHT.test(line)) uncaught.push(line);
    });
  };
  return { uncaught, options: { verbose: true, handleRuntimeStdio } };
}
