/**
 * Whose turn it is to run an authorization flow: this holder's (`held`, let go
 * with `release`), or another's (`released` settles when that holder lets go).
 */
export type FlowTurn =
  | {
      /** This caller holds the key: it runs the flow. */
      readonly held: true;
      /** Lets the key go, waking the waiters; call it once the flow ended, however it ended. */
      readonly release: () => void;
    }
  | {
      /** Another holder has the key: wait for `released`, then retry. */
      readonly held: false;
      /**
       * Settles when the holder lets go, or vanishes (a tab closed). Rejects with
       * the reason of the `signal` given to `acquire` if that aborts first.
       */
      readonly released: Promise<void>;
    };

/**
 * One authorization flow per key (a server) among all that share the lock: tabs
 * of one origin (`WebFlowLock` in `@mcp/core/browser`), or the connections of
 * one process (`MemoryFlowLock`). `AuthorizationGate` takes it before it shows
 * an authorization URL; while another holds it, the gate waits and then lets
 * the request retry with the tokens the other holder stored.
 */
export interface FlowLock {
  /**
   * Takes the flow for `key` at once if nobody holds it, without waiting; else
   * says who does. `signal` ends a wait for `released`. Not reentrant: a holder
   * asking again is told it is held.
   */
  acquire(key: string, signal: AbortSignal): Promise<FlowTurn>;
}

/** A `FlowLock` for one process: the connections made in it, never other processes or tabs. */
export class MemoryFlowLock implements FlowLock {
  /** Each held key, with the waiters to wake when it is let go. */
  readonly #held = new Map<string, Set<() => void>>();

  /** Takes `key` if free; else a wait for its release. */
  async acquire(key: string, signal: AbortSignal): Promise<FlowTurn> {
    signal.throwIfAborted();
    const waiters = this.#held.get(key);
    if (waiters) return { held: false, released: waitFor(waiters, signal) };
    const mine = new Set<() => void>();
    this.#held.set(key, mine);
    return {
      held: true,
      release: () => {
        if (this.#held.get(key) !== mine) return;
        this.#held.delete(key);
        for (const wake of mine) wake();
      },
    };
  }
}

/** Resolves when a waker in `waiters` is called; rejects, and leaves the set, when `signal` aborts first. */
function waitFor(waiters: Set<() => void>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const wake = () => {
      signal.removeEventListener('abort', stop);
      resolve();
    };
    const stop = () => {
      waiters.delete(wake);
      reject(signal.reason);
    };
    waiters.add(wake);
    signal.addEventListener('abort', stop, { once: true });
  });
}
