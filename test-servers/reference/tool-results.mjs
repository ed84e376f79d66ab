/** Small builders for `tools/call` results, shared by every reference tool. */

/**
 * A successful result with one text part.
 * @param {string} text
 * @returns {import('./tool-context.mjs').CallToolResult}
 */
export function textResult(text) {
  return { content: [{ type: 'text', text }] };
}

/**
 * A tool execution error: a result with `isError: true`, not a JSON-RPC error,
 * so the model can read what went wrong (2025-11-25, server/tools § Error Handling).
 * @param {string} message
 * @returns {import('./tool-context.mjs').CallToolResult}
 */
export function errorResult(message) {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * The message of anything thrown, for error results.
 * @param {unknown} error
 * @returns {string}
 */
export function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}
