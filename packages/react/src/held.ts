/**
 * Something a component opens and closes (a `Servers` set, a `Connection`),
 * made on the first `acquire()` and closed a tick after the last `release()`.
 *
 * The tick is what StrictMode needs. In development React runs every effect,
 * its cleanup and the effect again in one go, on a component that stays
 * mounted: a close right away would end the connection the second run then
 * wants. Closing on a timer lets the second `acquire()` keep what the first
 * made, so one connection opens, not two. When the component goes for good, the
 * timer fires and the thing closes. One that was closed (a provider hidden and
 * shown again) is made anew on the next `acquire()`, never reused closed.
 */
export class Held<T> {
  readonly #make: () => T;
  readonly #close: (value: T) => void;
  readonly #watch: (value: T, changed: () => void) => () => void;
  readonly #listeners = new Set<() => void>();
  #current: T | undefined;
  #unwatch: (() => void) | undefined;
  #users = 0;
  #closer: ReturnType<typeof setTimeout> | undefined;
  /** Callers of `whenMade()` waiting for the first `acquire()`. */
  #waiting: ((value: T) => void)[] = [];

  /**
   * `make` opens the thing (on the client only: it runs from an effect),
   * `close` ends it, and `watch` forwards its changes to this holder's
   * listeners until the function it returns is called.
   */
  constructor(make: () => T, close: (value: T) => void, watch: (value: T, changed: () => void) => () => void) {
    this.#make = make;
    this.#close = close;
    this.#watch = watch;
  }

  /** The thing while it is open; undefined before the first `acquire()` (server rendering) and after it closed. */
  get current(): T | undefined {
    return this.#current;
  }

  /** One more user: cancels a close under way, and makes the thing if there is none. */
  acquire(): void {
    this.#users += 1;
    if (this.#closer !== undefined) clearTimeout(this.#closer);
    this.#closer = undefined;
    if (this.#current !== undefined) return;
    const value = this.#make();
    this.#current = value;
    this.#unwatch = this.#watch(value, () => this.#changed());
    for (const resolve of this.#waiting.splice(0)) resolve(value);
    this.#changed();
  }

  /** One user fewer: with none left, the thing closes a tick later unless someone acquires it first. */
  release(): void {
    this.#users = Math.max(0, this.#users - 1);
    if (this.#users > 0 || this.#current === undefined || this.#closer !== undefined) return;
    this.#closer = setTimeout(() => {
      this.#closer = undefined;
      const value = this.#current;
      if (this.#users > 0 || value === undefined) return;
      this.#current = undefined;
      this.#unwatch?.();
      this.#unwatch = undefined;
      this.#close(value);
      this.#changed();
    }, 0);
  }

  /** The thing once it is made: at once when it is open, else at the next `acquire()`. */
  whenMade(): Promise<T> {
    if (this.#current !== undefined) return Promise.resolve(this.#current);
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Calls `listener` after each change of the thing, and when it is made or closed. Bound, for `useSyncExternalStore`. */
  readonly subscribe = (listener: () => void): (() => void) => {
    const entry = () => listener();
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  };

  #changed(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}
