import * as v from 'valibot';
import { MetaSchema } from './meta.js';

/** Every notification method a client sends or receives, across all revisions. */
export const NotificationMethod = {
  /** Client → server after `initialize` (legacy). */
  Initialized: 'notifications/initialized',
  /** Either direction (legacy); client → server, or server → client to end a listen stream on stdio (2026-07-28). */
  Cancelled: 'notifications/cancelled',
  Progress: 'notifications/progress',
  /** Log line (deprecated in 2026-07-28). */
  Message: 'notifications/message',
  ToolsListChanged: 'notifications/tools/list_changed',
  PromptsListChanged: 'notifications/prompts/list_changed',
  ResourcesListChanged: 'notifications/resources/list_changed',
  ResourceUpdated: 'notifications/resources/updated',
  /** Client → server when its roots change (legacy, `roots.listChanged`). */
  RootsListChanged: 'notifications/roots/list_changed',
  /** URL-mode elicitation finished (2025-11-25 only). */
  ElicitationComplete: 'notifications/elicitation/complete',
  /** Full task state pushed by the server (2025-11-25 tasks). */
  TaskStatus: 'notifications/tasks/status',
  /** Task state on a listen stream (2026-07-28 Tasks extension). */
  Tasks: 'notifications/tasks',
  /** First message of a `subscriptions/listen` stream (2026-07-28). */
  SubscriptionsAcknowledged: 'notifications/subscriptions/acknowledged',
} as const;
export type NotificationMethod = (typeof NotificationMethod)[keyof typeof NotificationMethod];

/**
 * Params of the `…/list_changed` notifications and `notifications/initialized`:
 * nothing but an optional `_meta`. A list change invalidates the cached list.
 */
export const ListChangedNotificationParamsSchema = v.looseObject({ _meta: v.optional(MetaSchema) });
/** The output type of {@link ListChangedNotificationParamsSchema}: a value it parsed. */
export type ListChangedNotificationParams = v.InferOutput<typeof ListChangedNotificationParamsSchema>;
