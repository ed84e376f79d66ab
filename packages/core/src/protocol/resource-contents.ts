import * as v from 'valibot';
import { Base64Schema, isJsonObject } from './json.js';
import { MetaSchema } from './meta.js';

const contentsEntries = { uri: v.string(), mimeType: v.optional(v.string()), _meta: v.optional(MetaSchema) };

/** A resource body as text (all revisions). */
export const TextResourceContentsSchema = v.looseObject({ ...contentsEntries, text: v.string() });
/** The output type of {@link TextResourceContentsSchema}: a value it parsed. */
export type TextResourceContents = v.InferOutput<typeof TextResourceContentsSchema>;

/** A resource body as base64 bytes (all revisions). */
export const BlobResourceContentsSchema = v.looseObject({ ...contentsEntries, blob: Base64Schema });
/** The output type of {@link BlobResourceContentsSchema}: a value it parsed. */
export type BlobResourceContents = v.InferOutput<typeof BlobResourceContentsSchema>;

/**
 * Text or blob contents. A `blob` key without `text` selects the blob shape;
 * everything else is validated as text, so issues name the bad field.
 */
export const ResourceContentsSchema = v.lazy((input) =>
  isJsonObject(input) && 'blob' in input && !('text' in input)
    ? BlobResourceContentsSchema
    : TextResourceContentsSchema,
);
/** The contents of a resource: text or a base64 blob. */
export type ResourceContents = TextResourceContents | BlobResourceContents;
