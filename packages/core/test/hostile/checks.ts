/**
 * What every hostile case checks, on any transport: the healthy call still
 * works, the bad call rejects (and with what), how long it took, how far the
 * heap grew meanwhile, and waiting for a condition with a deadline. No hooks:
 * the stdio suite imports these too.
 */
import { expect } from 'vitest';
import type { Client } from '../../src/index.js';

export const MiB = 1024 * 1024;

/** The healthy tool answers on this client: what every case checks before and after the fault. */
export async function expectHealthy(client: Client): Promise<void> {
  const result = await client.callTool('echo', { text: 'still here' });
  expect(result.text).toBe('still here');
}

/** Runs `work` and how long it took, in ms. */
export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
}

/** The error `promise` rejects with (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    const value = await promise;
    expect.fail(`expected a rejection, got ${JSON.stringify(value)?.slice(0, 200)}`);
  } catch (error) {
    return error;
  }
}

function heapInUse(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/**
 * Runs `work` while sampling the heap (and array buffers) every millisecond,
 * after a GC when `--expose-gc` gave us one: the largest growth seen. A bomb
 * that is buffered whole shows up as its decoded size.
 */
export async function peakGrowthDuring<T>(work: () => Promise<T>): Promise<{ value: T; peak: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const base = heapInUse();
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, heapInUse() - base);
  };
  const timer = setInterval(sample, 1);
  try {
    const value = await work();
    sample();
    return { value, peak };
  } finally {
    clearInterval(timer);
  }
}

/** Waits until `condition` holds (polling every 10 ms), failing after `ms`. */
export async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) expect.fail(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
