import * as v from 'valibot';
import { ClientCapabilitiesSchema } from './capabilities.js';
import { ImplementationSchema } from './implementation.js';
import { LoggingLevelSchema } from './logging.js';
import {
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_LOG_LEVEL,
  META_PROGRESS_TOKEN,
  META_PROTOCOL_VERSION,
} from './meta.js';
import { ProgressTokenSchema } from './progress.js';

/**
 * `_meta` on a request the client sends. The reserved keys are typed; any other
 * key passes through. Every key is optional because legacy revisions use none of
 * the `io.modelcontextprotocol/*` ones.
 */
const requestMetaEntries = {
  [META_PROGRESS_TOKEN]: v.optional(ProgressTokenSchema),
  [META_PROTOCOL_VERSION]: v.optional(v.string()),
  [META_CLIENT_CAPABILITIES]: v.optional(ClientCapabilitiesSchema),
  [META_CLIENT_INFO]: v.optional(ImplementationSchema),
  [META_LOG_LEVEL]: v.optional(LoggingLevelSchema),
};

/** `_meta` on a request the client sends: the reserved keys typed, any other key passed through. */
export const RequestMetaSchema = v.looseObject({ ...requestMetaEntries });
/** The output type of {@link RequestMetaSchema}: a value it parsed. */
export type RequestMeta = v.InferOutput<typeof RequestMetaSchema>;

/**
 * `_meta` as 2026-07-28 requires it on every request: the protocol version and
 * the client capabilities are mandatory (a server answers -32602 without them).
 */
export const ModernRequestMetaSchema = v.looseObject({
  ...requestMetaEntries,
  [META_PROTOCOL_VERSION]: v.string(),
  [META_CLIENT_CAPABILITIES]: ClientCapabilitiesSchema,
});
/** The output type of {@link ModernRequestMetaSchema}: a value it parsed. */
export type ModernRequestMeta = v.InferOutput<typeof ModernRequestMetaSchema>;

/** Params of a request that takes nothing but `_meta` (`server/discover`, `ping`, …). */
export const RequestParamsSchema = v.looseObject({ _meta: v.optional(RequestMetaSchema) });
/** The output type of {@link RequestParamsSchema}: a value it parsed. */
export type RequestParams = v.InferOutput<typeof RequestParamsSchema>;

/** Params of the paginated list requests; the cursor is opaque (§Pagination). */
export const PaginatedRequestParamsSchema = v.looseObject({
  cursor: v.optional(v.string()),
  _meta: v.optional(RequestMetaSchema),
});
/** The output type of {@link PaginatedRequestParamsSchema}: a value it parsed. */
export type PaginatedRequestParams = v.InferOutput<typeof PaginatedRequestParamsSchema>;
