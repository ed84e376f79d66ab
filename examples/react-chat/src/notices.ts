import { useSyncExternalStore } from 'react';

/**
 * What the server set worked around without failing a call, in words, for the
 * panel: a stored config another script damaged (skipped), a stored session it
 * could not use (replaced), a store that refused a write. Told before the
 * first render (while the stored servers are restored) and after, so it lives
 * outside React and components subscribe to it.
 */
let shown: readonly string[] = [];
const listeners = new Set<() => void>();

/** Adds a notice; every component showing them renders again. */
export function notice(message: string): void {
  shown = [...shown, message];
  for (const listener of listeners) listener();
}

/** The notices so far, oldest first. */
export function useNotices(): readonly string[] {
  return useSyncExternalStore(subscribe, () => shown);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
