import * as v from 'valibot';
import { ClientCapabilitiesSchema } from './capabilities.js';
import { ImplementationSchema } from './implementation.js';
import { JsonObjectSchema } from './json.js';
import { inputResponseEntries } from './mrtr.js';
import { RequestMetaSchema } from './request-meta.js';

/**
 * Params of the requests whose results every program parses: `initialize`,
 * `tools/call`, `prompts/get` and `resources/read`. The client builds these params
 * and never parses them; a server does. They live apart from the result schemas in
 * `initialize.ts`, `tools.ts`, `prompts.ts` and `resources.ts`, which every client
 * loads, because they bring in the request `_meta` schema and, for a 2026-07-28
 * retry (§MRTR), the answers to input requests with the elicitation, sampling and
 * roots schemas.
 */

/**
 * `initialize` params (legacy revisions, §Lifecycle). `protocolVersion` is the
 * newest revision the client supports; the server answers with the one it picks.
 */
export const InitializeRequestParamsSchema = v.looseObject({
  protocolVersion: v.string(),
  capabilities: ClientCapabilitiesSchema,
  clientInfo: ImplementationSchema,
  _meta: v.optional(RequestMetaSchema),
});
/** The output type of {@link InitializeRequestParamsSchema}: a value it parsed. */
export type InitializeRequestParams = v.InferOutput<typeof InitializeRequestParamsSchema>;

/** 2025-11-25 task augmentation of a request: ask the server to run it as a task, kept `ttl` ms. */
export const TaskMetadataSchema = v.looseObject({ ttl: v.optional(v.number()) });
/** The output type of {@link TaskMetadataSchema}: a value it parsed. */
export type TaskMetadata = v.InferOutput<typeof TaskMetadataSchema>;

/** `tools/call` params. `task` is the 2025-11-25 augmentation; `inputResponses` and `requestState` are a 2026-07-28 retry. */
export const CallToolRequestParamsSchema = v.looseObject({
  name: v.string(),
  arguments: v.optional(JsonObjectSchema),
  task: v.optional(TaskMetadataSchema),
  ...inputResponseEntries,
  _meta: v.optional(RequestMetaSchema),
});
/** The output type of {@link CallToolRequestParamsSchema}: a value it parsed. */
export type CallToolRequestParams = v.InferOutput<typeof CallToolRequestParamsSchema>;

/** `prompts/get` params; a 2026-07-28 retry adds `inputResponses` and `requestState`. */
export const GetPromptRequestParamsSchema = v.looseObject({
  name: v.string(),
  arguments: v.optional(v.record(v.string(), v.string())),
  ...inputResponseEntries,
  _meta: v.optional(RequestMetaSchema),
});
/** The output type of {@link GetPromptRequestParamsSchema}: a value it parsed. */
export type GetPromptRequestParams = v.InferOutput<typeof GetPromptRequestParamsSchema>;

/** `resources/read` params; a 2026-07-28 retry adds `inputResponses` and `requestState`. */
export const ReadResourceRequestParamsSchema = v.looseObject({
  uri: v.string(),
  ...inputResponseEntries,
  _meta: v.optional(RequestMetaSchema),
});
/** The output type of {@link ReadResourceRequestParamsSchema}: a value it parsed. */
export type ReadResourceRequestParams = v.InferOutput<typeof ReadResourceRequestParamsSchema>;
