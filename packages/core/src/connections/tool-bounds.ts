import type { Tool } from '../protocol/tools.js';

/**
 * Characters of a tool's description the model is offered by default
 * (`maxDescriptionChars`). Every description goes into every model call, so one
 * server's long description would crowd out the conversation.
 */
export const DEFAULT_MAX_DESCRIPTION_CHARS = 4_000;

/**
 * Bytes of a tool's input schema (as JSON, UTF-8) the model is offered by
 * default (`maxSchemaBytes`, 64 KiB). A tool whose schema is larger is left out:
 * a schema cut short would no longer say what the tool takes.
 */
export const DEFAULT_MAX_SCHEMA_BYTES = 65_536;

/** What one tool catalogue offers the model of each tool: how long a description, how large a schema. */
export interface ToolBounds {
  /** Longest description, in UTF-16 code units ({@link DEFAULT_MAX_DESCRIPTION_CHARS}); `Infinity` for none. */
  readonly maxDescriptionChars: number;
  /** Largest input schema, in bytes of its JSON in UTF-8 ({@link DEFAULT_MAX_SCHEMA_BYTES}); `Infinity` for none. */
  readonly maxSchemaBytes: number;
}

/**
 * The bounds `options` asks for, or the defaults. Throws a TypeError, its
 * message begun by `caller`, for one that is not a whole number from 1 up or `Infinity`.
 */
export function toolBounds(options: Partial<ToolBounds>, caller: string): ToolBounds {
  return {
    maxDescriptionChars: bound(
      caller,
      'maxDescriptionChars',
      options.maxDescriptionChars,
      DEFAULT_MAX_DESCRIPTION_CHARS,
    ),
    maxSchemaBytes: bound(caller, 'maxSchemaBytes', options.maxSchemaBytes, DEFAULT_MAX_SCHEMA_BYTES),
  };
}

function bound(caller: string, name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (value === Number.POSITIVE_INFINITY || (Number.isSafeInteger(value) && value >= 1)) return value;
  throw new TypeError(`${caller}: ${name} must be a whole number from 1 up, or Infinity (got ${String(value)})`);
}

/**
 * `text` cut to `max` UTF-16 code units, its last one an ellipsis (`…`) that
 * tells the model there was more; never half of a surrogate pair.
 */
export function cutDescription(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** Each schema's size, kept while its listing is: a watcher measures again only what a server listed anew. */
const sizes = new WeakMap<object, number>();
const encoder = new TextEncoder();

/**
 * The bytes of `tool`'s input schema as JSON (UTF-8), or `Infinity` when it
 * cannot be written as JSON at all (nested past what `JSON.stringify` can
 * recurse into).
 */
export function schemaBytes(tool: Tool): number {
  const schema = tool.inputSchema as object;
  let size = sizes.get(schema);
  if (size === undefined) {
    try {
      size = encoder.encode(JSON.stringify(schema)).length;
    } catch {
      size = Number.POSITIVE_INFINITY;
    }
    sizes.set(schema, size);
  }
  return size;
}
