/**
 * JSON-RPC errors the reference handlers throw. Both SDKs turn a thrown error
 * with a numeric `code` (and optional `data`) into a JSON-RPC error response
 * carrying that code and the error's own message, so plain Errors keep the
 * message on the wire free of any SDK prefix.
 */

/** JSON-RPC 2.0 "Invalid params"; MCP uses it for unknown tools/prompts and bad cursors. */
export const INVALID_PARAMS = -32602;

/** MCP "Resource not found" (2025-11-25, server/resources § Error Handling). */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * An Error the SDKs forward as a JSON-RPC error object.
 * @param {number} code
 * @param {string} message
 * @param {unknown} [data]
 * @returns {Error & { code: number, data?: unknown }}
 */
export function rpcError(code, message, data) {
  const error = /** @type {Error & { code: number, data?: unknown }} */ (new Error(message));
  error.code = code;
  if (data !== undefined) error.data = data;
  return error;
}
