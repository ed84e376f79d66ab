/**
 * A fixed number of slots for handler work: the server's requests and
 * notifications, and the answers to 2026-07-28 input requests. `tryRun` never
 * waits: when every slot is taken it returns false and the caller refuses or
 * drops the work, so the read loop never blocks. `run` waits its turn, for work
 * a call already bounded (one round's input requests).
 */
export class DispatchPool {
  readonly #size: number;
  readonly #running = new Set<Promise<void>>();
  /** Callers of `run` waiting for a slot, first come first served. */
  readonly #waiting = new Set<() => void>();
  readonly #end = new AbortController();

  constructor(size: number) {
    this.#size = Math.max(1, size);
  }

  /** Aborted, with the reason, when the connection ends: what handlers run for learns it here. */
  get ended(): AbortSignal {
    return this.#end.signal;
  }

  /** Starts `task` if a slot is free. The task must not reject (callers catch inside). */
  tryRun(task: () => Promise<void>): boolean {
    if (this.#running.size >= this.#size) return false;
    this.#start(task);
    return true;
  }

  /** Runs `task` in the next free slot; rejects with the reason if `signal` aborts before one frees. */
  async run<T>(task: () => Promise<T>, signal: AbortSignal): Promise<T> {
    while (this.#running.size >= this.#size) {
      signal.throwIfAborted();
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          this.#waiting.delete(wake);
          reject(signal.reason);
        };
        this.#waiting.add(wake);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    }
    signal.throwIfAborted();
    return this.#start(task);
  }

  /** The connection ended: `ended` aborts with `reason`. */
  end(reason: Error): void {
    this.#end.abort(reason);
  }

  /** Resolves when every running task ended, or after `graceMs`, whichever is first. */
  drain(graceMs: number): Promise<void> {
    if (this.#running.size === 0) return Promise.resolve();
    return within(Promise.allSettled([...this.#running]), graceMs);
  }

  #start<T>(task: () => Promise<T>): Promise<T> {
    const result = task();
    const release = (): void => {
      this.#running.delete(run);
      const next = this.#waiting.values().next().value;
      if (next) {
        this.#waiting.delete(next);
        next();
      }
    };
    const run = result.then(release, release);
    this.#running.add(run);
    return result;
  }
}

/** Waits for `work` to settle, but no longer than `ms`; never rejects. */
export async function within(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([work.then(noop, noop), grace]);
  clearTimeout(timer);
}

const noop = (): void => {};
