import * as v from 'valibot';
import { isJsonObject } from './json.js';
import { type RequestId, RequestIdSchema } from './jsonrpc.js';
import { META_SUBSCRIPTION_ID } from './meta.js';
import { RequestMetaSchema } from './request-meta.js';
import { resultEntries } from './result.js';

/**
 * Which change notifications a `subscriptions/listen` stream carries (2026-07-28).
 * Each is opt-in; leaving one out means "not subscribed". `resourceSubscriptions`
 * replaces `resources/subscribe`; `taskIds` belongs to the Tasks extension.
 */
export const SubscriptionFilterSchema = v.looseObject({
  toolsListChanged: v.optional(v.boolean()),
  promptsListChanged: v.optional(v.boolean()),
  resourcesListChanged: v.optional(v.boolean()),
  resourceSubscriptions: v.optional(v.array(v.string())),
  taskIds: v.optional(v.array(v.string())),
});
/** The output type of {@link SubscriptionFilterSchema}: a value it parsed. */
export type SubscriptionFilter = v.InferOutput<typeof SubscriptionFilterSchema>;

/** `subscriptions/listen` params; `notifications` is required. */
export const SubscriptionsListenRequestParamsSchema = v.looseObject({
  notifications: SubscriptionFilterSchema,
  _meta: v.optional(RequestMetaSchema),
});
/** The output type of {@link SubscriptionsListenRequestParamsSchema}: a value it parsed. */
export type SubscriptionsListenRequestParams = v.InferOutput<typeof SubscriptionsListenRequestParamsSchema>;

/** `_meta` naming the listen request a message belongs to; other keys kept. */
export const SubscriptionMetaSchema = v.looseObject({ [META_SUBSCRIPTION_ID]: RequestIdSchema });
/** The output type of {@link SubscriptionMetaSchema}: a value it parsed. */
export type SubscriptionMeta = v.InferOutput<typeof SubscriptionMetaSchema>;

/**
 * `notifications/subscriptions/acknowledged`: the first message of a subscription.
 * `notifications` is the subset the server will honour; compare it with the request.
 */
export const SubscriptionsAcknowledgedNotificationParamsSchema = v.looseObject({
  notifications: SubscriptionFilterSchema,
  _meta: SubscriptionMetaSchema,
});
/** The output type of {@link SubscriptionsAcknowledgedNotificationParamsSchema}: a value it parsed. */
export type SubscriptionsAcknowledgedNotificationParams = v.InferOutput<
  typeof SubscriptionsAcknowledgedNotificationParamsSchema
>;

/** The result that ends a listen stream gracefully (e.g. server shutdown); otherwise empty. */
export const SubscriptionsListenResultSchema = v.looseObject({ ...resultEntries, _meta: SubscriptionMetaSchema });
/** The output type of {@link SubscriptionsListenResultSchema}: a value it parsed. */
export type SubscriptionsListenResult = v.InferOutput<typeof SubscriptionsListenResultSchema>;

/**
 * The listen request a notification arrived for, or `undefined` when it belongs
 * to none (e.g. progress of an ordinary request). Reads `params._meta` of any
 * already-parsed notification; stdio demultiplexes by this value.
 */
export function subscriptionIdOf(notification: {
  readonly params?: Record<string, unknown> | undefined;
}): RequestId | undefined {
  const meta = notification.params?._meta;
  if (!isJsonObject(meta)) return undefined;
  const parsed = v.safeParse(RequestIdSchema, meta[META_SUBSCRIPTION_ID]);
  return parsed.success ? parsed.output : undefined;
}
