import * as v from 'valibot';
import { MetaSchema } from './meta.js';

/** A progress token: a string or a number the requester chose (all revisions, §Progress). */
export type ProgressToken = string | number;

/** Accepts a {@link ProgressToken}. */
export const ProgressTokenSchema = v.custom<ProgressToken>(
  (value) => typeof value === 'string' || (typeof value === 'number' && !Number.isNaN(value)),
  'Invalid type: Expected string or number',
);

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
/** The output type of {@link ProgressNotificationParamsSchema}: a value it parsed. */
export type ProgressNotificationParams = v.InferOutput<typeof ProgressNotificationParamsSchema>;
