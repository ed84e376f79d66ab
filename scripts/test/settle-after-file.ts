/**
 * A setup file for every vitest config in the repository. Vitest fails the run on
 * an unhandled rejection or an uncaught exception, but only while the test file's
 * worker is alive: once a file's last hook returns, the worker is torn down within
 * one macrotask turn, and a rejection that a closing client or server queues on a
 * timer is lost. Waiting this long after the file's last hook lets such errors
 * surface while vitest still listens (scripts/test/unhandled-errors-fail.mjs pins it).
 */
import { afterAll } from 'vitest';

/** How long each test file stays alive after its last hook, for late errors to surface. */
export const SETTLE_MS = 50;

// Registered before the file's own hooks, so with vitest's default `stack` order it runs after them.
afterAll(() => new Promise<void>((resolve) => setTimeout(resolve, SETTLE_MS)));
