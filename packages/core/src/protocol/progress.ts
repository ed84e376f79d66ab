import * as v from 'valibot';
import { MetaSchema } from './meta.js';

/** A progress token: a string or a number the requester chose (all revisions, §Progress). */
export const ProgressTokenSchema = v.union([v.string(), v.number()]);
export type ProgressToken = v.InferOutput<typeof ProgressTokenSchema>;

/**
 * `notifications/progress`. `progress` and `total` may be fractional; `message`
 * appears in 2025-03-26.
 */
export const ProgressNotificationParamsSchema = v.looseObject({
  progressToken: ProgressTokenSchema,
  progress: v.number(),
  total: v.optional(v.number()),
  message: v.optional(v.string()),
  _meta: v.optional(MetaSchema),
});
export type ProgressNotificationParams = v.InferOutput<typeof ProgressNotificationParamsSchema>;
