import type { ContentBlock } from '../protocol/content.js';
import type { CallToolResult, ToolResult } from '../protocol/tools.js';

/** A content part or resource body as it came off the wire. */
export type Part = Readonly<Record<string, unknown>>;

/** The string at `key`, if that is what it holds. */
export const str = (part: Part, key: string): string | undefined => {
  const value = part[key];
  return typeof value === 'string' ? value : undefined;
};

/** Keeps every part verbatim and in order; `text` joins the text parts. */
export function toToolResult(result: CallToolResult): ToolResult {
  const content = result.content as readonly ContentBlock[];
  let text = '';
  for (const part of content as readonly Part[]) {
    if (part.type === 'text') text += str(part, 'text') ?? '';
  }
  return {
    content,
    text,
    isError: result.isError === true,
    ...(result.structuredContent !== undefined && { structuredContent: result.structuredContent }),
    ...(result._meta !== undefined && { _meta: result._meta }),
  };
}
