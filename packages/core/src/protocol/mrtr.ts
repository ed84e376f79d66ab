import * as v from 'valibot';
import { ElicitRequestParamsSchema, ElicitResultSchema } from './elicitation.js';
import { byTag, isJsonObject } from './json.js';
import { MetaSchema } from './meta.js';
import { RESULT_TYPE_INPUT_REQUIRED } from './result.js';
import { ListRootsRequestParamsSchema, ListRootsResultSchema } from './roots.js';
import { CreateMessageRequestParamsSchema, CreateMessageResultSchema } from './sampling.js';

export {
  RESULT_TYPE_COMPLETE,
  RESULT_TYPE_INPUT_REQUIRED,
  type ResultType,
  ResultTypeSchema,
  resultTypeOf,
} from './result.js';

/** The methods a 2026-07-28 server may ask for inside `inputRequests` (§MRTR). */
export const INPUT_REQUEST_METHODS = ['elicitation/create', 'sampling/createMessage', 'roots/list'] as const;

/** An input request for an elicitation; no `jsonrpc`, no `id`. */
export const ElicitInputRequestSchema = v.looseObject({
  method: v.literal('elicitation/create'),
  params: ElicitRequestParamsSchema,
});

/** An input request for sampling (deprecated in 2026-07-28). */
export const CreateMessageInputRequestSchema = v.looseObject({
  method: v.literal('sampling/createMessage'),
  params: CreateMessageRequestParamsSchema,
});

/** An input request for the client's roots (deprecated in 2026-07-28); `params` is optional. */
export const ListRootsInputRequestSchema = v.looseObject({
  method: v.literal('roots/list'),
  params: v.optional(ListRootsRequestParamsSchema),
});

/**
 * One thing the server needs before it can finish. The shape is chosen by
 * `method`; any other method is rejected at `method`, since the client could not
 * answer it and every key must be answered before the retry.
 */
export const InputRequestSchema = byTag(
  'method',
  {
    'elicitation/create': ElicitInputRequestSchema,
    'sampling/createMessage': CreateMessageInputRequestSchema,
    'roots/list': ListRootsInputRequestSchema,
  },
  v.looseObject({ method: v.picklist(INPUT_REQUEST_METHODS) }),
);
/** One thing a 2026-07-28 server needs before it can finish: an elicitation, a sampling or a roots request. */
export type InputRequest =
  | v.InferOutput<typeof ElicitInputRequestSchema>
  | v.InferOutput<typeof CreateMessageInputRequestSchema>
  | v.InferOutput<typeof ListRootsInputRequestSchema>;

/** Input requests keyed by server-chosen names; the retry answers every key. */
export const InputRequestsSchema = v.record(v.string(), InputRequestSchema);
/** Input requests keyed by server-chosen names. */
export type InputRequests = Record<string, InputRequest>;

/**
 * The bare result answering one input request: `ElicitResult`, `CreateMessageResult`
 * or `ListRootsResult`, told apart by their required keys (`action`, `roots`, else sampling).
 */
export const InputResponseSchema = v.lazy((input) => {
  if (isJsonObject(input) && 'action' in input) return ElicitResultSchema;
  return isJsonObject(input) && 'roots' in input ? ListRootsResultSchema : CreateMessageResultSchema;
});
/** The client's answer to one input request. */
export type InputResponse =
  | v.InferOutput<typeof ElicitResultSchema>
  | v.InferOutput<typeof ListRootsResultSchema>
  | v.InferOutput<typeof CreateMessageResultSchema>;

/** Answers keyed like the `inputRequests` they answer. */
export const InputResponsesSchema = v.record(v.string(), InputResponseSchema);
/** Answers keyed like the `inputRequests` they answer. */
export type InputResponses = Record<string, InputResponse>;

/**
 * The params a retry adds to `tools/call`, `prompts/get` or `resources/read`.
 * `requestState` goes back byte for byte, and only if the server sent one.
 */
export const inputResponseEntries = {
  inputResponses: v.optional(InputResponsesSchema),
  requestState: v.optional(v.string()),
};

/**
 * "Not done yet: answer these, then retry" (2026-07-28 §MRTR). Allowed only on
 * `tools/call`, `prompts/get` and `resources/read`; at least one of
 * `inputRequests` and `requestState` is present. Never cacheable.
 */
export const InputRequiredResultSchema = v.pipe(
  v.looseObject({
    _meta: v.optional(MetaSchema),
    resultType: v.literal(RESULT_TYPE_INPUT_REQUIRED),
    inputRequests: v.optional(InputRequestsSchema),
    requestState: v.optional(v.string()),
  }),
  v.check(
    (result) => result.inputRequests !== undefined || result.requestState !== undefined,
    'Invalid input_required result: needs inputRequests or requestState',
  ),
);
/** The output type of {@link InputRequiredResultSchema}: a value it parsed. */
export type InputRequiredResult = v.InferOutput<typeof InputRequiredResultSchema>;

/**
 * Wraps a method's result schema so an `input_required` result is validated as
 * {@link InputRequiredResultSchema} and anything else by `schema`. For the three
 * methods MRTR applies to; elsewhere `input_required` is a protocol error.
 */
/* @__NO_SIDE_EFFECTS__ */
export function orInputRequired<const TSchema extends v.GenericSchema>(schema: TSchema) {
  return v.lazy((input): TSchema | typeof InputRequiredResultSchema =>
    isJsonObject(input) && input.resultType === RESULT_TYPE_INPUT_REQUIRED ? InputRequiredResultSchema : schema,
  );
}
