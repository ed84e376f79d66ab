import * as v from 'valibot';
import { IconsSchema } from './implementation.js';
import { Base64Schema, byTag, isJsonObject } from './json.js';
import { MetaSchema } from './meta.js';
import { ResourceContentsSchema } from './resource-contents.js';

/** Who a message or piece of content is for. */
export const RoleSchema = v.picklist(['user', 'assistant']);
/** The output type of {@link RoleSchema}: a value it parsed. */
export type Role = v.InferOutput<typeof RoleSchema>;

/**
 * Display hints on content and resources: `audience`, `priority` (0 = optional,
 * 1 = effectively required) and, since 2025-06-18, `lastModified` (ISO 8601).
 * Hints only, so `priority` is checked to be a number, not range-checked.
 */
export const AnnotationsSchema = v.looseObject({
  audience: v.optional(v.array(RoleSchema)),
  priority: v.optional(v.number()),
  lastModified: v.optional(v.string()),
});
/** The output type of {@link AnnotationsSchema}: a value it parsed. */
export type Annotations = v.InferOutput<typeof AnnotationsSchema>;

const decoration = { annotations: v.optional(AnnotationsSchema), _meta: v.optional(MetaSchema) };

/** Text for the model or the user (all revisions). */
export const TextContentSchema = v.looseObject({ type: v.literal('text'), text: v.string(), ...decoration });
/** The output type of {@link TextContentSchema}: a value it parsed. */
export type TextContent = v.InferOutput<typeof TextContentSchema>;

/** A base64 image with its MIME type (all revisions). */
export const ImageContentSchema = v.looseObject({
  type: v.literal('image'),
  data: Base64Schema,
  mimeType: v.string(),
  ...decoration,
});
/** The output type of {@link ImageContentSchema}: a value it parsed. */
export type ImageContent = v.InferOutput<typeof ImageContentSchema>;

/** Base64 audio with its MIME type (2025-03-26+). */
export const AudioContentSchema = v.looseObject({
  type: v.literal('audio'),
  data: Base64Schema,
  mimeType: v.string(),
  ...decoration,
});
/** The output type of {@link AudioContentSchema}: a value it parsed. */
export type AudioContent = v.InferOutput<typeof AudioContentSchema>;

/** A resource's contents inlined into a result or prompt (all revisions). */
export const EmbeddedResourceSchema = v.looseObject({
  type: v.literal('resource'),
  resource: ResourceContentsSchema,
  ...decoration,
});
/** The output type of {@link EmbeddedResourceSchema}: a value it parsed. */
export type EmbeddedResource = v.InferOutput<typeof EmbeddedResourceSchema>;

/**
 * A link to a resource the client may read or subscribe to (2025-06-18+). Its
 * fields are those of a listed resource; it need not appear in `resources/list`.
 */
export const ResourceLinkSchema = v.looseObject({
  type: v.literal('resource_link'),
  uri: v.string(),
  name: v.string(),
  title: v.optional(v.string()),
  description: v.optional(v.string()),
  mimeType: v.optional(v.string()),
  size: v.optional(v.number()),
  icons: v.optional(IconsSchema),
  ...decoration,
});
/** The output type of {@link ResourceLinkSchema}: a value it parsed. */
export type ResourceLink = v.InferOutput<typeof ResourceLinkSchema>;

/**
 * A content part whose `type` this SDK does not know, from a newer revision or an
 * extension. It passes through untouched: the checklist (§7.2) asks clients to
 * pass such parts on, not to fail the whole result.
 */
export const UnknownContentBlockSchema = v.looseObject({ type: v.string() });
/** The output type of {@link UnknownContentBlockSchema}: a value it parsed. */
export type UnknownContentBlock = v.InferOutput<typeof UnknownContentBlockSchema>;

/** The content kinds this SDK validates by shape, keyed by `type`. */
export const KNOWN_CONTENT_SCHEMAS = {
  text: TextContentSchema,
  image: ImageContentSchema,
  audio: AudioContentSchema,
  resource: EmbeddedResourceSchema,
  resource_link: ResourceLinkSchema,
};

/**
 * One part of a tool result or prompt message. A known `type` is validated by its
 * own shape, so a broken part yields an issue at the bad field (`content.1.data`);
 * an unknown `type` string passes through as {@link UnknownContentBlock}.
 */
export const ContentBlockSchema = byTag('type', KNOWN_CONTENT_SCHEMAS, UnknownContentBlockSchema);
/** A content block of a type this client knows. */
export type KnownContentBlock = TextContent | ImageContent | AudioContent | EmbeddedResource | ResourceLink;
/** Any content block: a known type, or an unknown one passed through as it came. */
export type ContentBlock = KnownContentBlock | UnknownContentBlock;

/** Narrows a parsed part to the kinds this SDK knows, so `switch (block.type)` sees their fields. */
export function isKnownContentBlock(block: ContentBlock): block is KnownContentBlock {
  return isJsonObject(block) && Object.hasOwn(KNOWN_CONTENT_SCHEMAS, block.type);
}
