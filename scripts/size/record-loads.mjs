// A Node module hook (registered by run-program.mjs with `module.register()`):
// appends the URL of every module Node loads to a file, so the parent process
// learns which chunks the program really fetched. Hooks run on their own
// thread; a synchronous append is done before the module evaluates.
import { appendFileSync } from 'node:fs';

/** @type {string | undefined} */
let log;

/** Receives `data` from `register()`: the file to append to. */
export function initialize(data) {
  log = data.log;
}

/** Records the URL, then loads the module as Node would have. */
export async function load(url, context, nextLoad) {
  if (log !== undefined && url.startsWith('file:')) appendFileSync(log, `${url}\n`);
  return nextLoad(url, context);
}
