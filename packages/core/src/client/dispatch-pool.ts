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
  /** For each signal callers of `run` wait under: its one abort listener and their rejections. */
  readonly #watches = new Map<
    AbortSignal,
    { readonly fails: Set<(reason: unknown) => void>; readonly onAbort: () => void }
  >();
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
          this.#unwatch(signal, fail);
          resolve();
        };
        const fail = (reason: unknown) => {
          this.#waiting.delete(wake);
          reject(reason);
        };
        this.#waiting.add(wake);
        this.#watch(signal, fail);
      });
    }
    signal.throwIfAborted();
    return this.#start(task);
  }

  /**
   * One abort listener per signal however many callers wait under it: a round's
   * input requests share one signal, and Node warns past 10 listeners on one.
   */
  #watch(signal: AbortSignal, fail: (reason: unknown) => void): void {
    let watch = this.#watches.get(signal);
    if (!watch) {
      const fails = new Set<(reason: unknown) => void>();
      const onAbort = () => {
        this.#watches.delete(signal);
        for (const each of fails) each(signal.reason);
      };
      watch = { fails, onAbort };
      this.#watches.set(signal, watch);
      signal.addEventListener('abort', onAbort, { once: true });
    }
    watch.fails.add(fail);
  }

  #unwatch(signal: AbortSignal, fail: (reason: unknown) => void): void {
    const watch = this.#watches.get(signal);
    if (!watch?.fails.delete(fail) || watch.fails.size > 0) return;
    this.#watches.delete(signal);
    signal.removeEventListener('abort', watch.onAbort);
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
