import type { ContentBlock, ToolResult } from '@mcp/core';
import type { AudioContent, EmbeddedResource, ImageContent, ResourceLink } from '@mcp/core/protocol';
import type { Tool } from 'ai';

/** What a tool's `toModelOutput` returns (the AI SDK does not export this type by name). */
export type ModelOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;
type ContentPart = Extract<ModelOutput, { type: 'content' }>['value'][number];

/**
 * How the installed `ai` writes base64 media in a tool's output. ai 6 has
 * `image-data` and `file-data` parts; ai 7 has one `file` part with tagged
 * data, and still reads the ai 6 parts, with a deprecation warning each time.
 */
export type MediaStyle = 'ai6' | 'ai7';

/**
 * A tool result as the model reads it (anything that is not one, as JSON):
 * - `structuredContent` present: JSON output of it (the 2025-06-18 spec has the
 *   text parts repeat it for clients without structured output, so the model
 *   would only read it twice); if the result also has media (images, audio,
 *   blob resources), which JSON output cannot carry, the JSON as one text part
 *   followed by the media parts in order (the other parts still left out);
 * - otherwise every content part in order: text as text; images and audio as
 *   media (base64 and media type); an embedded resource's text as text, its blob
 *   as media; a resource link, and any part of a kind this package does not
 *   know, as a line of text naming it (the model can ask for it by tool, and no
 *   URI is handed to the AI SDK to download).
 */
export function toModelOutput(result: ToolResult, style: MediaStyle): ModelOutput {
  // An output read back from stored messages may be anything the app kept there.
  if (!Array.isArray(result?.content)) return { type: 'json', value: (result ?? null) as never };
  if (result.structuredContent !== undefined) {
    const media = result.content.filter(isMedia);
    if (media.length === 0) return { type: 'json', value: result.structuredContent as never };
    const json: ContentPart = { type: 'text', text: JSON.stringify(result.structuredContent) };
    return { type: 'content', value: [json, ...media.map((block) => toPart(block, style))] };
  }
  if (result.content.length === 0) return { type: 'text', value: '' };
  return { type: 'content', value: result.content.map((block) => toPart(block, style)) };
}

/** Whether a part is media (base64 data), which only `content` output can carry. */
function isMedia(block: ContentBlock): boolean {
  if (block.type === 'image' || block.type === 'audio') return true;
  if (block.type !== 'resource') return false;
  const { resource } = block as EmbeddedResource;
  return 'blob' in resource && typeof resource.blob === 'string';
}

function toPart(block: ContentBlock, style: MediaStyle): ContentPart {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: String((block as { text: unknown }).text) };
    case 'image':
    case 'audio': {
      const { data, mimeType } = block as ImageContent | AudioContent;
      return media(data, mimeType, style);
    }
    case 'resource': {
      const { resource } = block as EmbeddedResource;
      if ('blob' in resource && typeof resource.blob === 'string') {
        return media(resource.blob, resource.mimeType ?? 'application/octet-stream', style);
      }
      return { type: 'text', text: String((resource as { text?: unknown }).text ?? '') };
    }
    case 'resource_link': {
      const { uri, name, mimeType, description } = block as ResourceLink;
      const about = [mimeType, description].filter(Boolean).join(', ');
      return { type: 'text', text: `[resource link: ${name} ${uri}${about ? ` (${about})` : ''}]` };
    }
    default:
      return { type: 'text', text: `[${block.type} content omitted]` };
  }
}

function media(data: string, mediaType: string, style: MediaStyle): ContentPart {
  if (style === 'ai7') return { type: 'file', mediaType, data: { type: 'data', data } } as unknown as ContentPart;
  return mediaType.startsWith('image/')
    ? { type: 'image-data', data, mediaType }
    : { type: 'file-data', data, mediaType };
}
