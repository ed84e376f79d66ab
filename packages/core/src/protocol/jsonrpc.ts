import * as v from 'valibot';
import { isJsonObject, JsonObjectSchema } from './json.js';

/** The only JSON-RPC version MCP uses (all revisions, §Base protocol). */
export const JSONRPC_VERSION = '2.0';

const JsonRpcVersionSchema = v.literal(JSONRPC_VERSION);

/** A request id: a string or an integer, never `null` (all revisions, §Messages). */
export type RequestId = string | number;

/**
 * Whether `value` is a request id: a string, or a number with no fractional
 * part (all revisions, §Messages). `null`, `1.5`, `NaN`, the infinities and a
 * `bigint` are not. An integer past 2^53 still is one: JSON sets no bound, and
 * the parser has already rounded it to a whole number.
 */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || Number.isInteger(value);
}

/** Accepts a {@link RequestId}: the one test of an id is `isRequestId`. */
export const RequestIdSchema = v.custom<RequestId>(isRequestId, 'Invalid type: Expected string or integer');

/** A request: expects exactly one response with the same `id`. MCP params are always an object. */
export const JsonRpcRequestSchema = v.looseObject({
  jsonrpc: JsonRpcVersionSchema,
  id: RequestIdSchema,
  method: v.string(),
  params: v.optional(JsonObjectSchema),
});
/** The output type of {@link JsonRpcRequestSchema}: a value it parsed. */
export type JsonRpcRequest = v.InferOutput<typeof JsonRpcRequestSchema>;

/** A notification: no `id`, and never answered. An `id` key makes it malformed. */
export const JsonRpcNotificationSchema = v.looseObject({
  jsonrpc: JsonRpcVersionSchema,
  id: v.optional(v.never()),
  method: v.string(),
  params: v.optional(JsonObjectSchema),
});
/** The output type of {@link JsonRpcNotificationSchema}: a value it parsed. */
export type JsonRpcNotification = v.InferOutput<typeof JsonRpcNotificationSchema>;

/** A successful response. It carries `result` and no `error`. */
export const JsonRpcResultResponseSchema = v.looseObject({
  jsonrpc: JsonRpcVersionSchema,
  id: RequestIdSchema,
  result: JsonObjectSchema,
  error: v.optional(v.never()),
});
/** The output type of {@link JsonRpcResultResponseSchema}: a value it parsed. */
export type JsonRpcResultResponse = v.InferOutput<typeof JsonRpcResultResponseSchema>;

/**
 * Whether `message` is a result response that {@link JsonRpcResultResponseSchema}
 * accepts, checked without building a parsed copy: the Client's fast path for the
 * message it receives most. Never looser than the schema (a test holds them
 * together); anything it turns down goes through the schema, which says why.
 */
export function isResultResponse(message: object): message is JsonRpcResultResponse {
  const { jsonrpc, id, result } = message as Record<string, unknown>;
  return jsonrpc === JSONRPC_VERSION && isRequestId(id) && isJsonObject(result) && !('error' in message);
}

/** The `error` member of an error response. `message` is for display, never parsing. */
export const JsonRpcErrorObjectSchema = v.looseObject({
  code: v.custom<number>(Number.isInteger, 'Invalid type: Expected integer'),
  message: v.string(),
  data: v.optional(v.unknown()),
});
/** The output type of {@link JsonRpcErrorObjectSchema}: a value it parsed. */
export type JsonRpcErrorObject = v.InferOutput<typeof JsonRpcErrorObjectSchema>;

/**
 * A failed response. `id` may be missing when the server could not read the
 * request's id (2025-11-25+ §Responses). JSON-RPC 2.0 §5 spells the same thing
 * `"id": null`, which older servers send for parse errors, so a `null` id is
 * accepted here and dropped: both mean "matches no request".
 */
export const JsonRpcErrorResponseSchema = v.pipe(
  v.looseObject({
    jsonrpc: JsonRpcVersionSchema,
    id: v.optional(
      v.custom<RequestId | null>(
        (id) => id === null || isRequestId(id),
        'Invalid id: Expected string, integer or null',
      ),
    ),
    error: JsonRpcErrorObjectSchema,
    result: v.optional(v.never()),
  }),
  v.transform(({ id, ...rest }) => (id === null || id === undefined ? rest : { ...rest, id })),
);
/** The output type of {@link JsonRpcErrorResponseSchema}: a value it parsed. */
export type JsonRpcErrorResponse = v.InferOutput<typeof JsonRpcErrorResponseSchema>;

/** Either kind of response; `error` present picks the error shape, so issues name the bad field. */
export const JsonRpcResponseSchema = v.lazy((input) =>
  isJsonObject(input) && 'error' in input ? JsonRpcErrorResponseSchema : JsonRpcResultResponseSchema,
);
/** Either kind of JSON-RPC response: a result or an error. */
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;

/**
 * Any single JSON-RPC message. The shape is chosen from the keys present
 * (`method` + `id` = request, `method` alone = notification, `error` = error
 * response, otherwise result response) and then validated strictly.
 */
export const JsonRpcMessageSchema = v.lazy((input) => {
  if (!isJsonObject(input) || !('method' in input)) return JsonRpcResponseSchema;
  return 'id' in input ? JsonRpcRequestSchema : JsonRpcNotificationSchema;
});
/** Any single JSON-RPC message: a request, a notification or a response. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/**
 * A batch: a non-empty array of messages. Only 2025-03-26 defines batches; a
 * client MUST be able to receive them there (§Transports) and never sends them.
 */
export const JsonRpcBatchSchema = v.pipe(v.array(JsonRpcMessageSchema), v.minLength(1));
/** The output type of {@link JsonRpcBatchSchema}: a value it parsed. */
export type JsonRpcBatch = v.InferOutput<typeof JsonRpcBatchSchema>;

/** True for a request (has `method` and `id`). Narrowing helper for already-validated messages. */
export function isJsonRpcRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return 'method' in message && 'id' in message;
}

/** True for a notification (has `method`, no `id`). */
export function isJsonRpcNotification(message: JsonRpcMessage): message is JsonRpcNotification {
  return 'method' in message && !('id' in message);
}

/** True for either kind of response. */
export function isJsonRpcResponse(message: JsonRpcMessage): message is JsonRpcResponse {
  return !('method' in message);
}

/** True for an error response. */
export function isJsonRpcErrorResponse(message: JsonRpcMessage): message is JsonRpcErrorResponse {
  return 'error' in message && message.error !== undefined;
}

/**
 * A result response whose `result` is checked by `result`, so issues carry the
 * full path (`result.capabilities.tools`). For a response already matched to its request.
 */
/* @__NO_SIDE_EFFECTS__ */
export function resultResponseSchema<const TResult extends v.GenericSchema>(result: TResult) {
  return v.looseObject({ ...JsonRpcResultResponseSchema.entries, result });
}

/** A request for one `method` whose `params` are checked by `params` (e.g. a server's `sampling/createMessage`). */
/* @__NO_SIDE_EFFECTS__ */
export function requestSchema<const TMethod extends string, const TParams extends v.GenericSchema>(
  method: TMethod,
  params: TParams,
) {
  return v.looseObject({ ...JsonRpcRequestSchema.entries, method: v.literal(method), params });
}

/** A notification for one `method` whose `params` are checked by `params`. */
/* @__NO_SIDE_EFFECTS__ */
export function notificationSchema<const TMethod extends string, const TParams extends v.GenericSchema>(
  method: TMethod,
  params: TParams,
) {
  return v.looseObject({ ...JsonRpcNotificationSchema.entries, method: v.literal(method), params });
}
