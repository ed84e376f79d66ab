import {
  type CompleteResult,
  CompleteResultSchema,
  type PromptReference,
  type ResourceTemplateReference,
} from '../../protocol/completion.js';
import { type GetPromptResult, GetPromptResultSchema, ListPromptsResultSchema } from '../../protocol/prompts.js';
import {
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ReadResourceResultSchema,
  type ReadResourceWireResult,
} from '../../protocol/resources.js';
import { decodeBase64 } from '../../util/base64.js';
import { page } from '../pagination.js';
import { type Part, resultParser, str } from './decode.js';

/**
 * The results of resources, prompts and completion: what the Client returns for
 * them, and their decoders. Only the catalogue module imports this file, so its
 * schemas and mappers stay out of a program that never reads a resource.
 */

/** One resource body; exactly one of `text` and `blob` is set. */
export interface ResourceContent {
  /** The resource's URI. */
  readonly uri: string;
  /** Its MIME type, when the server gave one. */
  readonly mimeType?: string;
  /** The body of a text resource. */
  readonly text?: string;
  /** The decoded bytes of a base64 `blob`. */
  readonly blob?: Uint8Array;
  /** The server's metadata for this part, verbatim. */
  readonly _meta?: Record<string, unknown>;
}

/** What `readResource` returns. */
export interface ReadResourceResult {
  /** The parts the server returned for the URI (a read may return several). */
  readonly contents: readonly ResourceContent[];
  /** The result's metadata, verbatim. */
  readonly _meta?: Record<string, unknown>;
}

/** One content part of a prompt message; which fields are set depends on `type`. */
export interface PromptPart {
  /** Always set; unknown kinds keep their type and `raw`, with no error. */
  readonly type: string;
  /** The text of a `text` part. */
  readonly text?: string;
  /** Decoded bytes of an `image` or `audio` part. */
  readonly data?: Uint8Array;
  /** The MIME type of an `image` or `audio` part. */
  readonly mimeType?: string;
  /** The resource of a `resource` part. */
  readonly resource?: ResourceContent;
  /** The URI of a `resource_link` part. */
  readonly uri?: string;
  /** The part as the server sent it. */
  readonly raw: Readonly<Record<string, unknown>>;
}

/** One message of a rendered prompt: its role and its parts, flattened. */
export interface PromptMessageResult {
  /** Who says it: `user` or `assistant`. */
  readonly role: string;
  /** Its parts, in order. */
  readonly content: readonly PromptPart[];
}

/** What `getPrompt` returns. */
export interface PromptResult {
  /** The prompt's description, when the server gave one. */
  readonly description?: string;
  /** The rendered messages, in order. */
  readonly messages: readonly PromptMessageResult[];
  /** The result's metadata, verbatim. */
  readonly _meta?: Record<string, unknown>;
}

/** What `complete` asks for: the `completion/complete` params, in their wire shape. */
export interface CompletionRequest {
  /** The prompt or resource template whose argument is being filled in. */
  readonly ref: PromptReference | ResourceTemplateReference;
  /** The argument being filled in. */
  readonly argument: {
    /** Its name, as the prompt or template declares it. */
    readonly name: string;
    /** What has been typed of it so far. */
    readonly value: string;
  };
  /** What else is known (2025-06-18 on). */
  readonly context?: {
    /** Values already chosen for the other arguments, by name. */
    readonly arguments?: Readonly<Record<string, string>>;
  };
}

/** What `complete` returns. */
export interface Completion {
  /** Suggested values, best first (at most 100). */
  readonly values: readonly string[];
  /** The server's total count of matches, when it gave one. */
  readonly total?: number;
  /** True when there are more matches than `values` holds. */
  readonly hasMore: boolean;
}

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

/** A `resources/read` result with every `blob` decoded. */
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

/** A `prompts/get` result, each message's content parts flattened (one part or a list, as revisions differ). */
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

/** A `completion/complete` result; an absent `hasMore` is false. */
export function toCompletion(result: CompleteResult): Completion {
  const { values, total, hasMore } = result.completion;
  return { values, ...(total !== undefined && { total }), hasMore: hasMore === true };
}

/** The decoders of the catalogue's methods: validated at the edge, then mapped (lists to one page each). */
export const parseRead = resultParser('resources/read', ReadResourceResultSchema, toReadResourceResult);
export const parsePrompt = resultParser('prompts/get', GetPromptResultSchema, toPromptResult);
export const parseComplete = resultParser('completion/complete', CompleteResultSchema, toCompletion);
export const parseResources = resultParser('resources/list', ListResourcesResultSchema, (r) =>
  page(r.resources, r.nextCursor),
);
export const parseTemplates = resultParser('resources/templates/list', ListResourceTemplatesResultSchema, (r) =>
  page(r.resourceTemplates, r.nextCursor),
);
export const parsePrompts = resultParser('prompts/list', ListPromptsResultSchema, (r) => page(r.prompts, r.nextCursor));
