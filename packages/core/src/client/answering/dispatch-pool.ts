import { within } from '../rpc/pending-calls.js';

/**
 * A fixed number of slots for handler work: the server's requests and
 * notifications, and the answers to 2026-07-28 input requests. `tryRun` never
 * waits: when every slot is taken it returns false and the caller answers busy or
 * drops the work, so the read loop never blocks. Work that may wait its turn
 * (one round's input requests) waits for `freed()` and tries again.
 */
export class DispatchPool {
  /** How many tasks run at once at most (limits.maxConcurrentHandlers, at least 1). */
  readonly size: number;
  readonly #running = new Set<Promise<void>>();
  /** What `freed()` handed out, settled (and forgotten) when the next task ends. */
  #freed: Promise<void> | undefined;
  #onFreed: (() => void) | undefined;

  constructor(size: number) {
    this.size = Math.max(1, size);
  }

  /** Starts `task` if a slot is free. The task must not reject (callers catch inside). */
  tryRun(task: () => Promise<void>): boolean {
    if (this.#running.size >= this.size) return false;
    const release = (): void => {
      this.#running.delete(run);
      const onFreed = this.#onFreed;
      this.#freed = this.#onFreed = undefined;
      onFreed?.();
    };
    const run = task().then(release, release);
    this.#running.add(run);
    return true;
  }

  /**
   * Settles when a running task next ends, so a slot may be free: for work a call
   * already bounds that waits its turn (one round's input requests) instead of
   * being answered busy. The waiter retries `tryRun`; its own signal ends the wait.
   */
  freed(): Promise<void> {
    this.#freed ??= new Promise((resolve) => {
      this.#onFreed = resolve;
    });
    return this.#freed;
  }

  /** Resolves when every running task ended, or after `graceMs`, whichever is first. */
  drain(graceMs: number): Promise<void> {
    if (this.#running.size === 0) return Promise.resolve();
    return within(Promise.allSettled([...this.#running]), graceMs);
  }
}
