/** A signal of one's own that aborts when a longer-lived one does. */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Removes the one listener the link put on the longer-lived signal. */
  readonly unlink: () => void;
}

/**
 * A short-lived signal that follows `parent`, for one exchange. `fetch` keeps a
 * listener on the signal it is given until the request is garbage-collected
 * (undici), so handing it a signal that lives as long as the transport or the
 * GET stream would gather one listener per request (Node warns past 1,500):
 * each exchange gets a linked signal instead, and unlinks when it is done.
 */
export function linkedSignal(parent: AbortSignal): LinkedSignal {
  const controller = new AbortController();
  const abort = () => controller.abort(parent.reason);
  if (parent.aborted) abort();
  else parent.addEventListener('abort', abort, { once: true });
  return { signal: controller.signal, unlink: () => parent.removeEventListener('abort', abort) };
}
