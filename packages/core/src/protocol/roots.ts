import * as v from 'valibot';
import { MetaSchema } from './meta.js';
import { resultEntries } from './result.js';

/** A root the client exposes. Its `uri` MUST be a `file://` URI (all revisions, §Roots). */
export const RootSchema = v.looseObject({
  uri: v.pipe(v.string(), v.startsWith('file://', 'Invalid root: URI must start with file://')),
  name: v.optional(v.string()),
  _meta: v.optional(MetaSchema),
});
/** The output type of {@link RootSchema}: a value it parsed. */
export type Root = v.InferOutput<typeof RootSchema>;

/** The answer to `roots/list`, as a JSON-RPC result (legacy) or an MRTR input response (2026-07-28). */
export const ListRootsResultSchema = v.looseObject({ ...resultEntries, roots: v.array(RootSchema) });
/** The output type of {@link ListRootsResultSchema}: a value it parsed. */
export type ListRootsResult = v.InferOutput<typeof ListRootsResultSchema>;

/** `roots/list` params, from a legacy server request or an MRTR input request: only `_meta`. */
export const ListRootsRequestParamsSchema = v.looseObject({ _meta: v.optional(MetaSchema) });
/** The output type of {@link ListRootsRequestParamsSchema}: a value it parsed. */
export type ListRootsRequestParams = v.InferOutput<typeof ListRootsRequestParamsSchema>;
