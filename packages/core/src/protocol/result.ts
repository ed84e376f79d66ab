import * as v from 'valibot';
import { MetaSchema } from './meta.js';

/**
 * What kind of result a server sent (2026-07-28 §Result). `"complete"` and
 * `"input_required"` are core; extensions add more (`"task"`). The field is
 * absent from every older revision, which means `"complete"`.
 */
export type ResultType = 'complete' | 'input_required' | (string & {});

/** Any string: which result types a call accepts is decided per method and per declared extension. */
export const ResultTypeSchema = v.custom<ResultType>(
  (value) => typeof value === 'string',
  'Invalid type: Expected string',
);

/** The result types every 2026-07-28 client understands. */
export const RESULT_TYPE_COMPLETE = 'complete';
/** The result type of a 2026-07-28 answer that asks for input first (`inputRequests`). */
export const RESULT_TYPE_INPUT_REQUIRED = 'input_required';

/**
 * Fields every result may carry. Internal building block of the result schemas.
 * Entry objects like this one are only ever spread into a fresh literal, never
 * passed to a schema as is: an object handed to a function counts as possibly
 * mutated, and rollup would then keep every schema that spreads it in every bundle.
 */
export const resultEntries = {
  _meta: v.optional(MetaSchema),
  resultType: v.optional(ResultTypeSchema),
};

/** A result with no known fields: the base of every result, unknown keys kept. */
export const ResultSchema = v.looseObject({ ...resultEntries });
/** The output type of {@link ResultSchema}: a value it parsed. */
export type Result = v.InferOutput<typeof ResultSchema>;

/** The effective result type: a missing `resultType` (pre-2026 servers) means `"complete"` (2026-07-28 §Result). */
export function resultTypeOf(result: { readonly resultType?: string | undefined }): ResultType {
  return result.resultType ?? RESULT_TYPE_COMPLETE;
}

/** `nextCursor` of paginated results: absent means the last page; `""` is a valid cursor (§Pagination). */
export const paginatedEntries = { nextCursor: v.optional(v.string()) };
