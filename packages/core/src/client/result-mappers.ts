import type { CompleteResult } from '../protocol/completion.js';
import type { GetPromptResult } from '../protocol/prompts.js';
import type { ReadResourceWireResult } from '../protocol/resources.js';
import { decodeBase64 } from '../util/decode-base64.js';
import type { Completion, PromptPart, PromptResult, ReadResourceResult, ResourceContent } from './results.js';

import { type Part, str } from './tool-result.js';

/** One resource body with a base64 `blob` decoded to bytes. */
export function toResourceContent(contents: Part): ResourceContent {
  const mimeType = str(contents, 'mimeType');
  const text = str(contents, 'text');
  const blob = str(contents, 'blob');
  const meta = contents._meta as Record<string, unknown> | undefined;
  return {
    uri: str(contents, 'uri') ?? '',
    ...(mimeType !== undefined && { mimeType }),
    ...(text !== undefined ? { text } : blob !== undefined && { blob: decodeBase64(blob) }),
    ...(meta !== undefined && { _meta: meta }),
  };
}

export function toReadResourceResult(result: ReadResourceWireResult): ReadResourceResult {
  return {
    contents: (result.contents as readonly Part[]).map(toResourceContent),
    ...(result._meta !== undefined && { _meta: result._meta }),
  };
}

/** Flattens one prompt content part; unknown kinds keep their type and raw form. */
export function toPromptPart(part: Part): PromptPart {
  const type = str(part, 'type') ?? 'unknown';
  const mimeType = str(part, 'mimeType');
  const base = { type, raw: part, ...(mimeType !== undefined && { mimeType }) };
  switch (type) {
    case 'text':
      return { ...base, text: str(part, 'text') ?? '' };
    case 'image':
    case 'audio':
      return { ...base, data: decodeBase64(str(part, 'data') ?? '') };
    case 'resource': {
      const resource = toResourceContent((part.resource ?? {}) as Part);
      return { ...base, resource, ...(resource.mimeType !== undefined && { mimeType: resource.mimeType }) };
    }
    case 'resource_link': {
      const uri = str(part, 'uri');
      return { ...base, ...(uri !== undefined && { uri }) };
    }
    default:
      return base;
  }
}

export function toPromptResult(result: GetPromptResult): PromptResult {
  const messages = result.messages.map((message) => {
    const content = message.content as unknown;
    const parts = (Array.isArray(content) ? content : [content]) as Part[];
    return { role: message.role, content: parts.map(toPromptPart) };
  });
  return {
    ...(result.description !== undefined && { description: result.description }),
    messages,
    ...(result._meta !== undefined && { _meta: result._meta }),
  };
}

export function toCompletion(result: CompleteResult): Completion {
  const { values, total, hasMore } = result.completion;
  return { values, ...(total !== undefined && { total }), hasMore: hasMore === true };
}
