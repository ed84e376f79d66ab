import { timerDelay } from '../../util/timers.js';
import type { Store } from '../store.js';
import { StoreError } from '../store-error.js';

const settled = () => undefined;

/**
 * Runs the tasks of one key one at a time, in the order they came, in this
 * isolate. A task that waits longer than its `lockWaitMs` for its turn never
 * runs: it rejects with a `StoreError` (`lock_timeout`), so a change that never
 * settles costs later callers a typed error, not a hang.
 */
export class KeyQueue {
  /** Settles when the last task queued per key, and every one before it, has settled; the next waits for it. */
  readonly #tails = new Map<string, Promise<void>>();

  /** Runs `task` once every earlier task of `key` has settled; rejects instead when that takes longer than `lockWaitMs`. */
  run<T>(key: string, lockWaitMs: number, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key);
    const run = previous ? this.#after(previous, key, lockWaitMs, task) : task();
    // A task that gave up waiting still holds its place until `previous` settles: the queue keeps excluding.
    const tail = (previous ?? Promise.resolve()).then(() => run.then(settled, settled));
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return run;
  }

  /** `task` once `previous` settles, unless `lockWaitMs` passes first. */
  #after<T>(previous: Promise<void>, key: string, lockWaitMs: number, task: () => Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<'timed out'>((resolve) => {
      timer = setTimeout(() => resolve('timed out'), timerDelay(lockWaitMs));
    });
    const turn = Promise.race([previous.then(() => 'turn' as const), timedOut]);
    return turn.then((outcome) => {
      clearTimeout(timer);
      if (outcome === 'turn') return task();
      throw new StoreError(
        'lock_timeout',
        key,
        `an earlier update of ${key} ran for more than ${lockWaitMs} ms (lockWaitMs)`,
      );
    });
  }
}

/** One queue per backing object (a Durable Object's storage, a KV namespace), shared by every store made over it. */
const queues = new WeakMap<object, KeyQueue>();

/** The queue of `backing`: two stores made over the same storage object (one per request, say) exclude each other's updates. */
function queueOf(backing: object): KeyQueue {
  let queue = queues.get(backing);
  if (!queue) {
    queue = new KeyQueue();
    queues.set(backing, queue);
  }
  return queue;
}

/**
 * `Store.update` for a store over `backing`: reads `key`, runs `change` and
 * writes its result, in `backing`'s queue for `key`.
 */
export function queuedUpdate<T>(
  store: Pick<Store, 'get' | 'set'>,
  backing: object,
  lockWaitMs: number,
  key: string,
  change: (current: unknown) => T | Promise<T>,
): Promise<T> {
  return queueOf(backing).run(key, lockWaitMs, async () => {
    const next = await change(await store.get(key));
    await store.set(key, next);
    return next;
  });
}
