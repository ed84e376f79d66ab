import { base64Size, bytes, hexPreview, type Style, toJson } from './format.js';

/** A content part as the server sent it (tool results, prompt messages). */
export type RawBlock = Readonly<Record<string, unknown>>;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

const label = (style: Style, ...parts: (string | undefined)[]) =>
  style.dim(`[${parts.filter((part) => part !== undefined && part !== '').join(', ')}]`);

/**
 * Lines that show one content part in a terminal: text as itself, every other
 * kind as a bracketed label (type, MIME type, decoded size) so nothing the server
 * sent is hidden, and parts of unknown kinds with their raw JSON (§7.2 of the
 * client checklist: pass unknown parts on rather than fail).
 */
export function renderBlock(block: RawBlock, style: Style): string[] {
  const type = text(block.type) ?? '?';
  switch (type) {
    case 'text':
      return (text(block.text) ?? '').split('\n');
    case 'image':
    case 'audio':
      return [label(style, `${type} ${text(block.mimeType) ?? ''}`.trim(), bytes(base64Size(text(block.data) ?? '')))];
    case 'resource':
      return renderEmbedded(block.resource, style);
    case 'resource_link':
      return [
        label(
          style,
          `resource_link ${text(block.uri) ?? ''}`,
          text(block.name) && `"${text(block.name)}"`,
          text(block.mimeType),
          typeof block.size === 'number' ? bytes(block.size) : undefined,
        ),
      ];
    default:
      return [label(style, type), ...indent(toJson(block).split('\n'))];
  }
}

/** An embedded resource: its uri and MIME type, then its text (indented) or its blob's size. */
function renderEmbedded(resource: unknown, style: Style): string[] {
  const contents = (typeof resource === 'object' && resource !== null ? resource : {}) as RawBlock;
  const uri = `resource ${text(contents.uri) ?? ''}`;
  const mimeType = text(contents.mimeType);
  const blob = text(contents.blob);
  if (blob !== undefined) return [label(style, uri, mimeType, bytes(base64Size(blob)))];
  return [label(style, uri, mimeType), ...indent((text(contents.text) ?? '').split('\n'))];
}

/** One resource body from `resources/read`: a header, then the text or a hex preview of the bytes. */
export function renderResourceContents(
  contents: { readonly uri: string; readonly mimeType?: string; readonly text?: string; readonly blob?: Uint8Array },
  style: Style,
): string[] {
  if (contents.blob !== undefined) {
    return [
      label(style, contents.uri, contents.mimeType, bytes(contents.blob.length)),
      ...indent([hexPreview(contents.blob)]),
    ];
  }
  return [label(style, contents.uri, contents.mimeType), ...(contents.text ?? '').split('\n')];
}

/** Pretty JSON of `structuredContent`, under its own label. */
export function renderStructured(value: unknown, style: Style): string[] {
  return [style.dim('structuredContent:'), ...toJson(value).split('\n')];
}

export function indent(lines: readonly string[], by = '  '): string[] {
  return lines.map((line) => (line === '' ? line : by + line));
}
