import { encodeBase64 } from '../../util/base64.js';

/**
 * Header values for `Mcp-Name` and `Mcp-Param-*` (2026-07-28 Streamable HTTP):
 * plain when every character is visible ASCII, space or tab, with no leading or
 * trailing whitespace and no look of the sentinel; otherwise
 * `=?base64?<base64 of the UTF-8 bytes>?=`.
 */
export function encodeHeaderValue(value: string): string {
  const plain =
    /^[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?$/.test(value) && !(value.startsWith('=?base64?') && value.endsWith('?='));
  return plain ? value : `=?base64?${encodeBase64(value)}?=`;
}
