/**
 * How deep `mcp` lays out a server's data. A server may send JSON nested
 * 100,000 levels deep, which the client delivers intact; walking it
 * recursively (to strip control characters, or in `JSON.stringify`) would
 * overflow the stack, and printed with indentation it would be gigabytes of
 * spaces. So output stops at this depth: the terminal view shows
 * {@link ELIDED} in place of anything deeper, and `--json`, which promises
 * the data unchanged, refuses with {@link OutputError}.
 */
export const MAX_PRINT_DEPTH = 100;

/** What the terminal view shows in place of an array or object nested past {@link MAX_PRINT_DEPTH}. */
export const ELIDED = `[nested deeper than ${MAX_PRINT_DEPTH} levels]`;

/** The answer arrived, but cannot be printed the way the command line asked. */
export class OutputError extends Error {
  override name = 'OutputError';
}

/** Whether `value` is an array or object that `mcp` would descend into. */
export function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !(value instanceof Uint8Array);
}

/**
 * Throws OutputError when `value` holds an array or object more than
 * {@link MAX_PRINT_DEPTH} levels down (the top counts as level 1). A loop with
 * its own stack, so no depth can overflow the call stack.
 */
export function assertPrintable(value: unknown): void {
  const pending: Array<readonly [unknown, number]> = [[value, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (!isContainer(item)) continue;
    if (depth > MAX_PRINT_DEPTH) {
      throw new OutputError(
        `the answer nests more than ${MAX_PRINT_DEPTH} levels deep, past what --json prints (without --json, deeper levels show as ${ELIDED})`,
      );
    }
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
}
