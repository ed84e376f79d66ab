import { timerDelay } from '../../util/timers.js';
import type { Store } from '../store.js';
import { StoreError } from '../store-error.js';
import { KeyQueue } from './key-queue.js';

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
 * writes its result, in `backing`'s queue for `key`. A turn that does not come
 * within `lockWaitMs` never runs: it rejects with `StoreError` (`lock_timeout`),
 * so a change that never settles costs later callers a typed error, not a hang.
 */
export function queuedUpdate<T>(
  store: Pick<Store, 'get' | 'set'>,
  backing: object,
  lockWaitMs: number,
  key: string,
  change: (current: unknown) => T | Promise<T>,
): Promise<T> {
  const wait = new AbortController();
  const timer = setTimeout(
    () =>
      wait.abort(
        new StoreError(
          'lock_timeout',
          key,
          `an earlier update of ${key} ran for more than ${lockWaitMs} ms (lockWaitMs)`,
        ),
      ),
    timerDelay(lockWaitMs),
  );
  return queueOf(backing)
    .run(
      key,
      async () => {
        clearTimeout(timer);
        const next = await change(await store.get(key));
        await store.set(key, next);
        return next;
      },
      wait.signal,
    )
    .finally(() => clearTimeout(timer));
}
