import * as v from 'valibot';
import { MetaSchema } from './meta.js';

/** The RFC 5424 severities, least severe first (all revisions, §Logging). */
export const LOGGING_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;

/** A log level; anything else is rejected, as servers reject unknown levels with -32602. */
export const LoggingLevelSchema = v.picklist(LOGGING_LEVELS);
/** The output type of {@link LoggingLevelSchema}: a value it parsed. */
export type LoggingLevel = v.InferOutput<typeof LoggingLevelSchema>;

/** Legacy `logging/setLevel` params (removed in 2026-07-28, which uses `_meta` logLevel instead). */
export const SetLevelRequestParamsSchema = v.looseObject({ level: LoggingLevelSchema, _meta: v.optional(MetaSchema) });
/** The output type of {@link SetLevelRequestParamsSchema}: a value it parsed. */
export type SetLevelRequestParams = v.InferOutput<typeof SetLevelRequestParamsSchema>;

/** `notifications/message`: one log line; `data` is any JSON and untrusted (deprecated in 2026-07-28). */
export const LoggingMessageNotificationParamsSchema = v.looseObject({
  level: LoggingLevelSchema,
  logger: v.optional(v.string()),
  data: v.unknown(),
  _meta: v.optional(MetaSchema),
});
/** The output type of {@link LoggingMessageNotificationParamsSchema}: a value it parsed. */
export type LoggingMessageNotificationParams = v.InferOutput<typeof LoggingMessageNotificationParamsSchema>;
