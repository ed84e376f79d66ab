import type { ChildProcess } from 'node:child_process';
import { timerDelay } from '@mcp/core/transport';

/**
 * Resolves true if `exited` settles within `ms`, false otherwise. The timer is
 * cleared either way, so a quick exit does not hold the event loop for the grace.
 */
export function exitsWithin(exited: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timerDelay(ms));
    exited.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Stops a child in the order the MCP stdio transport prescribes (2025-11-25 and
 * 2026-07-28, Transports, stdio, Shutdown): close its stdin, wait; SIGTERM, wait;
 * SIGKILL. Resolves once the process is gone, so no orphan outlives the call.
 * `exited` must settle when the child's 'exit' (or 'close') event fires.
 */
export async function shutdownChild(child: ChildProcess, exited: Promise<unknown>, graceMs: number): Promise<void> {
  child.stdin?.end();
  if (await exitsWithin(exited, graceMs)) return;
  child.kill('SIGTERM');
  if (await exitsWithin(exited, graceMs)) return;
  child.kill('SIGKILL');
  await exited;
}
