import type { ReadResourceResult } from '@mcp/core';
import { renderResourceContents } from './content.js';
import type { Style } from './format.js';

/** The terminal layout of `resources/read`: each body under its own header, blobs as size and hex. */
export function renderReadResult(result: ReadResourceResult, style: Style): string[] {
  if (result.contents.length === 0) return [style.dim('(no contents)')];
  return result.contents.flatMap((contents) => renderResourceContents(contents, style));
}
