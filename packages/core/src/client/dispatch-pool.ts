/**
 * A fixed number of slots for work the server starts (its requests and
 * notifications). `tryRun` never waits: when every slot is taken it returns
 * false and the caller refuses or drops the work, so the read loop never blocks.
 */
export class DispatchPool {
  readonly #size: number;
  readonly #running = new Set<Promise<void>>();

  constructor(size: number) {
    this.#size = Math.max(1, size);
  }

  /** Starts `task` if a slot is free. The task must not reject (callers catch inside). */
  tryRun(task: () => Promise<void>): boolean {
    if (this.#running.size >= this.#size) return false;
    const run = task().finally(() => this.#running.delete(run));
    this.#running.add(run);
    return true;
  }

  /** Resolves when every running task ended, or after `graceMs`, whichever is first. */
  drain(graceMs: number): Promise<void> {
    if (this.#running.size === 0) return Promise.resolve();
    return within(Promise.allSettled([...this.#running]), graceMs);
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
