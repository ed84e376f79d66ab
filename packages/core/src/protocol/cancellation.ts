import * as v from 'valibot';
import { RequestIdSchema } from './jsonrpc.js';
import { MetaSchema } from './meta.js';

/**
 * `notifications/cancelled`, in either direction. `requestId` names a request the
 * sender issued; it is optional in the 2025-11-25 type (task requests use
 * `tasks/cancel`) but set for every other request. In 2026-07-28 the server
 * sends it only to end a `subscriptions/listen` stream on stdio.
 */
export const CancelledNotificationParamsSchema = v.looseObject({
  requestId: v.optional(RequestIdSchema),
  reason: v.optional(v.string()),
  _meta: v.optional(MetaSchema),
});
/** The output type of {@link CancelledNotificationParamsSchema}: a value it parsed. */
export type CancelledNotificationParams = v.InferOutput<typeof CancelledNotificationParamsSchema>;
