import type { FlowLock, FlowTurn } from '../connections/flow-lock.js';

/** Options of {@link WebFlowLock}. */
export interface WebFlowLockOptions {
  /** Put before every key to name the Web Lock (default `'mcp-oauth-flow:'`). */
  readonly prefix?: string;
  /** The lock manager (default `navigator.locks`, read at each call). */
  readonly locks?: LockManager;
}

/**
 * A `FlowLock` across the tabs, windows and workers of one origin, on Web Locks:
 * the first tab to need the user for a server takes the lock (`ifAvailable`, so
 * it never waits), and the others queue a request for it, which the browser
 * grants when the holder lets go, whether it released the lock or its tab
 * closed or crashed. That grant is how a waiting tab learns the flow ended and
 * retries with the tokens the holder stored in the shared store (a
 * `LocalStorageOAuthStore`, say); it lets the lock go at once.
 *
 * Web Locks exist only in secure contexts (https, or http on localhost).
 * Without them every tab runs its own flow, as with no lock.
 */
export class WebFlowLock implements FlowLock {
  readonly #prefix: string;
  readonly #locks: LockManager | undefined;

  /** A lock over the origin's Web Locks, each key named with `prefix`. */
  constructor(options: WebFlowLockOptions = {}) {
    this.#prefix = options.prefix ?? 'mcp-oauth-flow:';
    this.#locks = options.locks;
  }

  /** Takes the Web Lock for `key` if it is free; else a wait for the holder to let go. */
  async acquire(key: string, signal: AbortSignal): Promise<FlowTurn> {
    signal.throwIfAborted();
    const locks = this.#locks ?? (globalThis.navigator as Navigator | undefined)?.locks;
    if (!locks) return { held: true, release: () => {} };
    const name = this.#prefix + key;
    let release = () => {};
    const holding = new Promise<void>((resolve) => {
      release = resolve;
    });
    const granted = await new Promise<boolean>((resolve, reject) => {
      // The callback's promise holds the lock until `release`; a lock held elsewhere gives null at once.
      locks
        .request(name, { ifAvailable: true }, (lock) => {
          resolve(lock !== null);
          return lock === null ? undefined : holding;
        })
        .catch(reject);
    });
    if (granted) return { held: true, release };
    // Granted when the holder lets go (or its tab is gone), and let go again at once.
    const released = locks.request(name, { signal }, () => undefined).then(() => undefined);
    return { held: false, released };
  }
}
