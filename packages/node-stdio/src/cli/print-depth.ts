import { LimitError } from '@mcp/core';

/**
 * How deep `mcp` lays out a server's data. A server may send JSON nested
 * 100,000 levels deep, which the client delivers intact; walking it
 * recursively (to strip control characters, or in `JSON.stringify`) would
 * overflow the stack, and printed with indentation it would be gigabytes of
 * spaces. So output stops at this depth: the terminal view shows
 * {@link ELIDED} in place of anything deeper, and `--json`, which promises
 * the data unchanged, refuses with a `LimitError` (limit {@link PRINT_DEPTH_LIMIT}).
 */
export const MAX_PRINT_DEPTH = 100;

/** How a `LimitError` names this bound: no option sets it, so it is named for what it bounds. */
export const PRINT_DEPTH_LIMIT = '--json depth';

/** What the terminal view shows in place of an array or object nested past {@link MAX_PRINT_DEPTH}. */
export const ELIDED = `[nested deeper than ${MAX_PRINT_DEPTH} levels]`;

/** Whether `value` is an array or object that `mcp` would descend into. */
export function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !(value instanceof Uint8Array);
}

/**
 * Throws a `LimitError` when `value` holds an array or object more than
 * {@link MAX_PRINT_DEPTH} levels down (the top counts as level 1): the answer
 * arrived, but cannot be printed the way the command line asked. A loop with
 * its own stack, so no depth can overflow the call stack.
 */
export function assertPrintable(value: unknown): void {
  const pending: Array<readonly [unknown, number]> = [[value, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (!isContainer(item)) continue;
    if (depth > MAX_PRINT_DEPTH) {
      throw new LimitError(
        PRINT_DEPTH_LIMIT,
        MAX_PRINT_DEPTH,
        `the answer nests more than ${MAX_PRINT_DEPTH} levels deep, past what --json prints (without --json, deeper levels show as ${ELIDED})`,
      );
    }
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
}
