/** A signal of one's own that aborts when a longer-lived one does. */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Lets the link go: the longer-lived signal no longer holds it. */
  readonly unlink: () => void;
}

/** The live links of each longer-lived signal, aborted by the one listener it has. */
const links = new WeakMap<AbortSignal, Set<AbortController>>();

/**
 * A short-lived signal that follows `parent`, for one exchange. `fetch` keeps a
 * listener on the signal it is given until the request is garbage-collected
 * (undici), so handing it a signal that lives as long as the transport or the
 * GET stream would gather one listener per request (Node warns past 1,500):
 * each exchange gets a linked signal instead, and unlinks when it is done.
 * The links of one parent hang off a single listener on it, whatever their
 * number: one listener per link made Node warn of a leak (past 10) under a
 * burst of sends, replies to a flood of server requests say. MRTR input rounds
 * follow the client's dispatch pool the same way.
 */
export function linkedSignal(parent: AbortSignal): LinkedSignal {
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, unlink: () => {} };
  }
  let live = links.get(parent);
  if (!live) {
    const fresh = new Set<AbortController>();
    links.set(parent, fresh);
    const abortAll = () => {
      links.delete(parent);
      for (const link of fresh) link.abort(parent.reason);
      fresh.clear();
    };
    parent.addEventListener('abort', abortAll, { once: true });
    live = fresh;
  }
  const held = live;
  held.add(controller);
  return { signal: controller.signal, unlink: () => held.delete(controller) };
}
