import type { ToolResult } from '@mcp/core';
import { renderBlock, renderStructured } from './content.js';
import type { Style } from './format.js';

/**
 * The terminal layout of a `tools/call` result: every content part in wire
 * order, then `structuredContent` as pretty JSON when the server sent it.
 */
export function renderToolResult(result: ToolResult, style: Style): string[] {
  const lines = result.content.flatMap((block) => renderBlock(block, style));
  if (result.structuredContent !== undefined) {
    if (lines.length > 0) lines.push('');
    lines.push(...renderStructured(result.structuredContent, style));
  }
  return lines;
}

/** `--json`: the result in its wire shape (`content`, `structuredContent`, `isError`, `_meta`). */
export function toolResultJson(result: ToolResult): Record<string, unknown> {
  return {
    content: result.content,
    ...(result.structuredContent !== undefined && { structuredContent: result.structuredContent }),
    isError: result.isError,
    ...(result._meta && { _meta: result._meta }),
  };
}
