/**
 * What a client process measures about itself: CPU (user + system, from
 * `process.cpuUsage()`), wall time, and memory. Peak RSS uses the kernel's
 * high-water mark (VmHWM), reset through `/proc/self/clear_refs` right before
 * the measured call so the peak belongs to that call alone; where that is not
 * possible, `process.resourceUsage().maxRSS` (a lifetime peak) stands in.
 */
import { readFileSync, writeFileSync } from 'node:fs';

/** Starts a CPU + wall clock; the returned function reads both (µs, ms). */
export function startClock() {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  return () => {
    const used = process.cpuUsage(cpu);
    return { cpuUs: used.user + used.system, wallMs: performance.now() - wall };
  };
}

/** Full collections until the heap settles (needs `--expose-gc`). */
export function settle() {
  const gc = /** @type {(() => void) | undefined} */ (globalThis.gc);
  if (gc === undefined) return;
  gc();
  gc();
}

/** Resets the high-water mark of the resident set; false where the kernel does not allow it. */
export function resetPeakRss() {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

/** Peak resident set in bytes since the last reset (or since start). */
export function peakRss() {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Number(match[1]) * 1024;
  } catch {
    // Not Linux: fall through to getrusage.
  }
  return process.resourceUsage().maxRSS * 1024;
}
