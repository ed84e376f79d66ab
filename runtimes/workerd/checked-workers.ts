import { afterAll, afterEach, expect } from 'vitest';
import { type StartedWorker, startWorker, type WorkerSetup } from './start-worker.js';

/** Starts Workers for one test file, and stops them. */
export interface CheckedWorkers {
  start(script: URL | string, setup?: WorkerSetup): StartedWorker;
  /** Stops one before the file ends (to start another workerd on its storage, say). */
  stop(worker: StartedWorker): Promise<void>;
}

/**
 * The Workers a test file starts, checked for errors nothing caught. After each test, every
 * one of them must have reported none; the file's last hook stops them all and checks again,
 * so a report that trails its test (workerd's log comes over a pipe) still fails the file.
 * Call it once, at the top of the file.
 */
export function checkedWorkers(): CheckedWorkers {
  const started: StartedWorker[] = [];
  const reported = () => started.flatMap((worker) => worker.uncaught.splice(0));
  afterEach(() => {
    expect(reported(), 'workerd reported errors that nothing caught').toEqual([]);
  });
  afterAll(async () => {
    await Promise.all(started.map((worker) => worker.dispose()));
    expect(reported(), 'workerd reported errors that nothing caught').toEqual([]);
  });
  return {
    start(script, setup) {
      const worker = startWorker(script, setup);
      started.push(worker);
      return worker;
    },
    stop: (worker) => worker.dispose(),
  };
}
