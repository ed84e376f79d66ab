import type { AppHost } from '@mcp/core/apps';

/** One view an {@link McpAppView} mounted: its host, the element its iframe lives in, and what it was made for. */
interface Mounted {
  readonly host: AppHost;
  readonly container: HTMLDivElement;
  /** What the host was made for (connection, tool, call, sandbox): the same values keep it. */
  readonly key: readonly unknown[];
}

/**
 * Where an `<McpAppView>` keeps its view: the element it renders (the slot),
 * and at most one `AppHost` whose iframe sits in a container of its own
 * inside it. Made during render, touched only from refs and effects.
 *
 * Two things React does not give a view:
 *
 * - Time to tear down. React removes an unmounted component's element at
 *   once, and an iframe taken out of the document is gone with its scripts,
 *   so `ui/resource-teardown` would reach nobody. Before React removes the
 *   slot (a ref's detach runs first), the container moves to a hidden holder
 *   on `document.body` with `moveBefore`, which keeps an iframe running where
 *   `appendChild` would reload it. The host then sends the teardown, waits for
 *   the view (bounded by `limits.teardownTimeoutMs`) and removes the iframe.
 *   A browser without `moveBefore` loses the frame with the element; the host
 *   still cleans up, within the same bound.
 * - One view under StrictMode. In development React detaches, cleans up and
 *   runs again every ref and effect of a component that stays mounted. The
 *   release waits a tick, so the second acquire keeps the host the first one
 *   made, and the container goes back into the slot: one iframe, never two.
 */
export class ViewSlot {
  #slot: HTMLElement | undefined;
  #mounted: Mounted | undefined;
  #releasing: ReturnType<typeof setTimeout> | undefined;

  /** The host of the view shown now. */
  get host(): AppHost | undefined {
    return this.#mounted?.host;
  }

  /**
   * The ref of the slot element: `node` when React attached it, null when it
   * is about to remove it (React 18 calls refs with null; 19 also takes the
   * cleanup this returns).
   */
  readonly place = (node: HTMLElement | null): (() => void) | undefined => {
    if (node === null) {
      this.#park();
      return undefined;
    }
    this.#slot = node;
    const container = this.#mounted?.container;
    if (container && container.parentNode !== node && !moveKeeping(container, node)) node.append(container);
    return () => this.#park();
  };

  /**
   * The host for `key`, from an effect: the one mounted for the same key when
   * a release is under way (StrictMode's second run), else a new one made by
   * `make` in a fresh container. A host of another key is retired first.
   */
  acquire(key: readonly unknown[], make: (container: HTMLDivElement) => AppHost): AppHost {
    clearTimeout(this.#releasing);
    this.#releasing = undefined;
    const mounted = this.#mounted;
    if (mounted && sameKey(mounted.key, key)) return mounted.host;
    if (mounted) retire(mounted);
    this.#mounted = undefined;
    const container = document.createElement('div');
    if (this.#slot?.isConnected) this.#slot.append(container);
    else holder().append(container);
    try {
      const host = make(container);
      this.#mounted = { host, container, key };
      return host;
    } catch (error) {
      container.remove();
      throw error;
    }
  }

  /** From the effect's cleanup: the view is torn down a tick later, unless `acquire` keeps it first. */
  release(): void {
    clearTimeout(this.#releasing);
    this.#releasing = setTimeout(() => {
      this.#releasing = undefined;
      const mounted = this.#mounted;
      this.#mounted = undefined;
      if (mounted) retire(mounted);
    }, 0);
  }

  /** The slot is leaving the document: a live view's container goes to the holder, where it can still answer. */
  #park(): void {
    this.#slot = undefined;
    const container = this.#mounted?.container;
    // Without `moveBefore` it stays, and goes with the slot: a plain move would reload the view for nothing.
    if (container?.isConnected && !holds(container)) moveKeeping(container, holder());
  }
}

/** Tears a host down and removes its container once it is done; the iframe stays until the view answered. */
function retire({ host, container }: Mounted): void {
  // Still in the slot (another key took it): hidden there, since moving it elsewhere may reload it.
  if (!holds(container)) container.hidden = true;
  void host.teardown().finally(() => container.remove());
}

/** The hidden element on `document.body` where views finish tearing down, made when first needed. */
function holder(): HTMLElement {
  const existing = document.querySelector<HTMLElement>('[data-mcp-app-teardown]');
  if (existing) return existing;
  const made = document.createElement('div');
  made.setAttribute('data-mcp-app-teardown', '');
  made.setAttribute('aria-hidden', 'true');
  made.inert = true;
  // Out of sight and layout, but rendered: a view tearing down still runs its scripts.
  made.style.cssText = 'position:fixed;top:0;left:0;width:0;height:0;overflow:hidden;visibility:hidden';
  document.body.append(made);
  return made;
}

/** Whether two keys hold the same values, in order. */
export function sameKey(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, index) => Object.is(value, b[index]));
}

function holds(container: HTMLElement): boolean {
  return container.parentElement?.hasAttribute('data-mcp-app-teardown') === true;
}

/**
 * Moves `node` to the end of `parent` with `moveBefore`, which keeps an iframe
 * in it running (a plain append reloads it). False where the browser has no
 * `moveBefore`, or cannot move it so (not both connected, another document).
 */
function moveKeeping(node: HTMLElement, parent: HTMLElement): boolean {
  const atomic = parent as HTMLElement & { moveBefore?: (node: Node, child: Node | null) => void };
  if (typeof atomic.moveBefore !== 'function' || !node.isConnected || !parent.isConnected) return false;
  try {
    atomic.moveBefore(node, null);
    return true;
  } catch {
    return false;
  }
}
