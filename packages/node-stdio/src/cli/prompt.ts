import type { PromptResult } from '@mcp/core';
import { indent, renderBlock } from './content.js';
import type { Style } from './format.js';

/** The terminal layout of `prompts/get`: the description, then each message under its role. */
export function renderPromptResult(result: PromptResult, style: Style): string[] {
  const lines = result.description ? [style.dim(result.description), ''] : [];
  for (const message of result.messages) {
    lines.push(style.bold(message.role));
    lines.push(...indent(message.content.flatMap((part) => renderBlock(part.raw, style))));
  }
  return lines;
}

/** `--json`: each message with its parts as the server sent them. */
export function promptResultJson(result: PromptResult): Record<string, unknown> {
  return {
    ...(result.description !== undefined && { description: result.description }),
    messages: result.messages.map((message) => ({
      role: message.role,
      content: message.content.map((part) => part.raw),
    })),
    ...(result._meta && { _meta: result._meta }),
  };
}
