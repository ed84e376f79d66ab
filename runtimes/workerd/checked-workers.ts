import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect } from 'vitest';
import { bundleWorker } from './bundle-worker.js';
import { type StartedWorker, startWorker, type WorkerSetup } from './start-worker.js';

/** Starts Workers for one test file, and stops them. */
export interface CheckedWorkers {
  /**
   * Bundles the Worker whose main module is `entry` as wrangler would (bundle-worker.ts), into a
   * folder removed when the file ends; the bundle's path, for `start`.
   */
  bundle(entry: URL | string): Promise<string>;
  start(script: URL | string, setup?: WorkerSetup): StartedWorker;
  /** Stops one before the file ends (to start another workerd on its storage, say). */
  stop(worker: StartedWorker): Promise<void>;
}

/**
 * The Workers a test file starts, checked for errors nothing caught and for forwarded bodies
 * an object answered without reading. After each test, every one of them must have reported
 * none; the file's last hook stops them all and checks again, so a report that trails its
 * test (workerd's log comes over a pipe) still fails the file. Call it once, at the top of
 * the file.
 */
export function checkedWorkers(): CheckedWorkers {
  const started: StartedWorker[] = [];
  const bundles: string[] = [];
  const check = () => {
    const uncaught = started.flatMap((worker) => worker.uncaught.splice(0));
    const unread = started.flatMap((worker) => worker.unreadBodies.splice(0));
    expect(uncaught, 'workerd reported errors that nothing caught').toEqual([]);
    expect(unread, 'a Durable Object answered a forwarded request before reading its body').toEqual([]);
  };
  afterEach(check);
  afterAll(async () => {
    await Promise.all(started.map((worker) => worker.dispose()));
    for (const folder of bundles) rmSync(folder, { recursive: true, force: true });
    check();
  });
  return {
    bundle(entry) {
      const folder = mkdtempSync(join(tmpdir(), 'worker-bundle-'));
      bundles.push(folder);
      return bundleWorker(entry, join(folder, 'worker.js'));
    },
    start(script, setup) {
      const worker = startWorker(script, setup);
      started.push(worker);
      return worker;
    },
    stop: (worker) => worker.dispose(),
  };
}
