import * as v from 'valibot';
import { cacheEntries } from './cache.js';
import { AnnotationsSchema } from './content.js';
import { IconsSchema } from './implementation.js';
import { MetaSchema } from './meta.js';
import { RequestMetaSchema } from './request-meta.js';
import { paginatedEntries, resultEntries } from './result.js';

export {
  type BlobResourceContents,
  BlobResourceContentsSchema,
  type ResourceContents,
  ResourceContentsSchema,
  type TextResourceContents,
  TextResourceContentsSchema,
} from './resource-contents.js';

import { ResourceContentsSchema } from './resource-contents.js';

const describedEntries = {
  name: v.string(),
  title: v.optional(v.string()),
  description: v.optional(v.string()),
  mimeType: v.optional(v.string()),
  annotations: v.optional(AnnotationsSchema),
  icons: v.optional(IconsSchema),
  _meta: v.optional(MetaSchema),
};

/**
 * A resource the server can read. `uri` and `name` in every revision; `size`
 * since 2025-03-26; `title` and `_meta` since 2025-06-18; `icons` since 2025-11-25.
 */
export const ResourceSchema = v.looseObject({ uri: v.string(), size: v.optional(v.number()), ...describedEntries });
/** The output type of {@link ResourceSchema}: a value it parsed. */
export type Resource = v.InferOutput<typeof ResourceSchema>;

/** A family of resources named by an RFC 6570 URI template. */
export const ResourceTemplateSchema = v.looseObject({ uriTemplate: v.string(), ...describedEntries });
/** The output type of {@link ResourceTemplateSchema}: a value it parsed. */
export type ResourceTemplate = v.InferOutput<typeof ResourceTemplateSchema>;

/** `resources/list` result: one page, plus cache hints in 2026-07-28. */
export const ListResourcesResultSchema = v.looseObject({
  ...resultEntries,
  ...paginatedEntries,
  ...cacheEntries,
  resources: v.array(ResourceSchema),
});
/** The output type of {@link ListResourcesResultSchema}: a value it parsed. */
export type ListResourcesResult = v.InferOutput<typeof ListResourcesResultSchema>;

/** `resources/templates/list` result: one page, plus cache hints in 2026-07-28. */
export const ListResourceTemplatesResultSchema = v.looseObject({
  ...resultEntries,
  ...paginatedEntries,
  ...cacheEntries,
  resourceTemplates: v.array(ResourceTemplateSchema),
});
/** The output type of {@link ListResourceTemplatesResultSchema}: a value it parsed. */
export type ListResourceTemplatesResult = v.InferOutput<typeof ListResourceTemplatesResultSchema>;

/**
 * `resources/read` result. Several items may come back (e.g. a directory), each
 * with its own `uri`; an empty list means "exists, no content", not "not found".
 */
export const ReadResourceResultSchema = v.looseObject({
  ...resultEntries,
  ...cacheEntries,
  contents: v.array(ResourceContentsSchema),
});
/**
 * The `resources/read` result as the server sends it. Named apart from the
 * `ReadResourceResult` of `@mcp/core`, which is what `Client.readResource()`
 * returns (blobs decoded): one name, one meaning.
 */
export type ReadResourceWireResult = v.InferOutput<typeof ReadResourceResultSchema>;
/**
 * @deprecated The same as `ReadResourceWireResult`; the name `ReadResourceResult`
 * belongs to what `Client.readResource()` returns (`@mcp/core`).
 */
export type ReadResourceResult = ReadResourceWireResult;

/** Legacy `resources/subscribe` and `resources/unsubscribe` params (removed in 2026-07-28). */
export const SubscribeRequestParamsSchema = v.looseObject({ uri: v.string(), _meta: v.optional(RequestMetaSchema) });
/** The output type of {@link SubscribeRequestParamsSchema}: a value it parsed. */
export type SubscribeRequestParams = v.InferOutput<typeof SubscribeRequestParamsSchema>;

/** `notifications/resources/updated`: `uri` may be a sub-resource of the one subscribed to. */
export const ResourceUpdatedNotificationParamsSchema = v.looseObject({
  uri: v.string(),
  _meta: v.optional(MetaSchema),
});
/** The output type of {@link ResourceUpdatedNotificationParamsSchema}: a value it parsed. */
export type ResourceUpdatedNotificationParams = v.InferOutput<typeof ResourceUpdatedNotificationParamsSchema>;
