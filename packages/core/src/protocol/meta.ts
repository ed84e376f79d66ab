import * as v from 'valibot';
import { isJsonObject } from './json.js';

/**
 * `_meta`: free-form metadata on params, results and content. Values under keys we
 * do not implement are never interpreted (2025-06-18+ §Basic `_meta`), so this
 * accepts any object and keeps every key.
 */
export const MetaSchema = v.record(v.string(), v.unknown());

/** A `_meta` object. */
export type Meta = v.InferOutput<typeof MetaSchema>;

/** Progress opt-in on a request (all revisions, §Progress). */
export const META_PROGRESS_TOKEN = 'progressToken';
/** Request `_meta`: the revision of this request; required in 2026-07-28 (§Versioning). */
export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
/** Request `_meta`: the client's capabilities for this request; required in 2026-07-28. */
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
/** Request `_meta`: the client's `Implementation`; SHOULD be sent in 2026-07-28. */
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
/** Request `_meta`: opt-in log level for this request (2026-07-28; replaces `logging/setLevel`). */
export const META_LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
/** Result `_meta`: the server's self-reported `Implementation` (2026-07-28); display only. */
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
/** Notification and listen-result `_meta`: the id of the `subscriptions/listen` request (2026-07-28). */
export const META_SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
/** `_meta` tying a message to a task (2025-11-25 tasks). */
export const META_RELATED_TASK = 'io.modelcontextprotocol/related-task';
/** `CreateTaskResult._meta`: text the model may see at once (2025-11-25 tasks). */
export const META_MODEL_IMMEDIATE_RESPONSE = 'io.modelcontextprotocol/model-immediate-response';
/** W3C Trace Context and Baggage keys, allowed without a prefix (2026-07-28, SEP-414). */
export const META_TRACEPARENT = 'traceparent';
/** W3C Trace Context `tracestate`, allowed in `_meta` without a prefix (2026-07-28, SEP-414). */
export const META_TRACESTATE = 'tracestate';
/** W3C Baggage, allowed in `_meta` without a prefix (2026-07-28, SEP-414). */
export const META_BAGGAGE = 'baggage';

/** `params` with `entries` added to its `_meta`; every other key of both is kept. */
export function withMeta(
  params: Readonly<Record<string, unknown>> | undefined,
  entries: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const meta = params?._meta;
  return { ...params, _meta: { ...(isJsonObject(meta) ? meta : {}), ...entries } };
}
