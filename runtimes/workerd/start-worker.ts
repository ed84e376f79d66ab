import { basename, dirname, join, relative, sep } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';

/**
 * How long workerd's last log lines get to arrive before it is stopped: stopping it
 * discards whatever its pipes still hold.
 */
const SETTLE_MS = 50;

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const reporter = fileURLToPath(new URL('./report-unhandled.js', import.meta.url));

/**
 * The lines that tell of an error nothing caught. An exception a Worker throws outside
 * any request's promise chain (in a timer or an event listener) reaches no request and
 * fails none; workerd reports it only in its verbose log, on a line that starts the first
 * way. A rejection left unhandled is printed by report-unhandled.js the second way.
 */
const UNCAUGHT = /uncaught exception; source = |^unhandled rejection in workerd: /;

/**
 * The line workerd logs ("uncaught exception; exception = …") when a Durable Object answers
 * a request the Worker forwarded before reading its body to the end: workerd's pump of the
 * body into the object gives up, and a client still sending sees its connection reset.
 */
const UNREAD_BODY = /Can't read from request stream after response has been sent/;

/** What a Worker gets besides its code; each is Miniflare's option of the same name. */
export interface WorkerSetup {
  /** 2025-09-01 unless given (an example's comes from its wrangler.jsonc). */
  readonly compatibilityDate?: string;
  readonly bindings?: Record<string, string>;
  readonly kvNamespaces?: string[];
  readonly durableObjects?: Record<string, string>;
  /** A directory that keeps Durable Object storage, for a later workerd to find. */
  readonly durableObjectsPersist?: string;
}

/** A Worker running in workerd, and workerd's reports of the errors nothing caught, for a test to assert empty. */
export interface StartedWorker {
  readonly mf: Miniflare;
  readonly uncaught: string[];
  /** workerd's reports of a forwarded body left unread by the object that answered it. */
  readonly unreadBodies: string[];
  /** Stops workerd once its last log lines have had time to arrive; called again, the same promise. */
  dispose(): Promise<void>;
}

/** The deepest directory that holds both paths. */
function commonRoot(a: string, b: string): string {
  const left = a.split(sep);
  const right = b.split(sep);
  let depth = 0;
  while (depth < left.length && left[depth] === right[depth]) depth += 1;
  return left.slice(0, depth).join(sep) || sep;
}

/** An import specifier for `path`, relative to the directory `from`. */
function specifier(from: string, path: string): string {
  const name = relative(from, path).split(sep).join('/');
  return JSON.stringify(name.startsWith('.') ? name : `./${name}`);
}

/**
 * Starts the Worker whose main module is `script` in workerd: ES modules loaded from the
 * repository (or from wherever a bundle lies), workerd's output printed as Miniflare prints
 * it. An entry module made here imports report-unhandled.js before the Worker and
 * re-exports all of the Worker's exports (its handlers and Durable Object classes), so the
 * Worker's own code stays exactly what is deployed.
 */
export function startWorker(script: URL | string, setup: WorkerSetup = {}): StartedWorker {
  const main = script instanceof URL ? fileURLToPath(script) : script;
  const folder = dirname(main);
  const uncaught: string[] = [];
  const unreadBodies: string[] = [];
  const handleRuntimeStdio = (stdout: Readable, stderr: Readable) => {
    createInterface(stdout).on('line', (line) => console.log(line));
    createInterface(stderr).on('line', (line) => {
      console.error(line);
      if (UNCAUGHT.test(line)) uncaught.push(line);
      if (UNREAD_BODY.test(line)) unreadBodies.push(line);
    });
  };
  const mf = new Miniflare({
    modules: true,
    script: [
      `import ${specifier(folder, reporter)};`,
      `export * from ${specifier(folder, main)};`,
      `export { default } from ${specifier(folder, main)};`,
    ].join('\n'),
    // Names the entry module (no such file is written) and resolves its imports.
    scriptPath: join(folder, `reporting-${basename(main)}`),
    // Module names are paths below it: the repository's root, or / for a bundle outside it.
    modulesRoot: commonRoot(repoRoot, folder),
    // Miniflare's default rules read *.js as CommonJS; every file the worker loads is an ES module.
    modulesRules: [{ type: 'ESModule', include: ['**/*.js', '**/*.mjs'] }],
    compatibilityDate: '2025-09-01',
    // Without it, workerd reports a rejection as unhandled even when a handler is attached
    // later in the same microtask checkpoint: cancelling a fetch body with a read pending
    // does that with a promise of its own. The flag is on by default from 2026-03-03.
    compatibilityFlags: ['unhandled_rejection_after_microtask_checkpoint'],
    verbose: true,
    handleRuntimeStdio,
    ...setup,
  });
  let disposed: Promise<void> | undefined;
  const dispose = () => {
    disposed ??= sleep(SETTLE_MS).then(() => mf.dispose());
    return disposed;
  };
  return { mf, uncaught, unreadBodies, dispose };
}
