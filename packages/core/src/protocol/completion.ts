import * as v from 'valibot';
import { RequestMetaSchema } from './request-meta.js';
import { resultEntries } from './result.js';

/** Completion target: a prompt, by name. */
export const PromptReferenceSchema = v.looseObject({
  type: v.literal('ref/prompt'),
  name: v.string(),
  title: v.optional(v.string()),
});
/** The output type of {@link PromptReferenceSchema}: a value it parsed. */
export type PromptReference = v.InferOutput<typeof PromptReferenceSchema>;

/**
 * Completion target: a resource template (or URI), by `uri`. Called
 * `ResourceReference` in 2024-11-05 and 2025-03-26; same shape.
 */
export const ResourceTemplateReferenceSchema = v.looseObject({ type: v.literal('ref/resource'), uri: v.string() });
/** The output type of {@link ResourceTemplateReferenceSchema}: a value it parsed. */
export type ResourceTemplateReference = v.InferOutput<typeof ResourceTemplateReferenceSchema>;

/** `completion/complete` params; `context.arguments` (2025-06-18+) carries values already chosen. */
export const CompleteRequestParamsSchema = v.looseObject({
  ref: v.variant('type', [PromptReferenceSchema, ResourceTemplateReferenceSchema]),
  argument: v.looseObject({ name: v.string(), value: v.string() }),
  context: v.optional(v.looseObject({ arguments: v.optional(v.record(v.string(), v.string())) })),
  _meta: v.optional(RequestMetaSchema),
});
/** The output type of {@link CompleteRequestParamsSchema}: a value it parsed. */
export type CompleteRequestParams = v.InferOutput<typeof CompleteRequestParamsSchema>;

/** Most values one completion result may hold (all revisions). */
export const MAX_COMPLETION_VALUES = 100;

/** `completion/complete` result: ranked `values`; `total` / `hasMore` are UI hints. */
export const CompleteResultSchema = v.looseObject({
  ...resultEntries,
  completion: v.looseObject({
    values: v.pipe(
      v.array(v.string()),
      v.check(
        (values) => values.length <= MAX_COMPLETION_VALUES,
        `Invalid length: at most ${MAX_COMPLETION_VALUES} values`,
      ),
    ),
    total: v.optional(v.number()),
    hasMore: v.optional(v.boolean()),
  }),
});
/** The output type of {@link CompleteResultSchema}: a value it parsed. */
export type CompleteResult = v.InferOutput<typeof CompleteResultSchema>;
