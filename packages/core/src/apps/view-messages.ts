import * as v from 'valibot';
import { ContentBlockSchema } from '../protocol/content.js';
import { JsonObjectSchema } from '../protocol/json.js';
import { LoggingLevelSchema } from '../protocol/logging.js';

/**
 * What a view may send, by method (MCP Apps 2026-01-26, messages). Every
 * schema is loose: a later revision's field passes through unread.
 */

/** `ui/initialize`: who the view is and what it can do. */
export const ViewInitializeParamsSchema = v.looseObject({
  protocolVersion: v.string(),
  appInfo: v.optional(v.looseObject({ name: v.string(), version: v.optional(v.string()) })),
  appCapabilities: v.optional(v.looseObject({ availableDisplayModes: v.optional(v.array(v.string())) })),
});

/** `tools/call` from a view. */
export const ViewToolCallParamsSchema = v.looseObject({
  name: v.string(),
  arguments: v.optional(JsonObjectSchema),
});

/** `resources/read` from a view. */
export const ViewReadResourceParamsSchema = v.looseObject({ uri: v.string() });

/**
 * `ui/message`. The spec's prose shows one content block; the ext-apps SDK
 * sends an array. Both are taken, and the output is always the array.
 */
export const ViewMessageParamsSchema = v.looseObject({
  role: v.literal('user'),
  content: v.pipe(
    v.union([v.array(ContentBlockSchema), ContentBlockSchema]),
    v.transform((content) => (Array.isArray(content) ? content : [content])),
  ),
});

/** `ui/open-link`. */
export const ViewOpenLinkParamsSchema = v.looseObject({ url: v.string() });

/** `ui/request-display-mode`. */
export const ViewDisplayModeParamsSchema = v.looseObject({ mode: v.picklist(['inline', 'fullscreen', 'pip']) });

/** `ui/update-model-context`. */
export const ViewModelContextParamsSchema = v.looseObject({
  content: v.optional(v.array(ContentBlockSchema)),
  structuredContent: v.optional(JsonObjectSchema),
});

/** `notifications/message`: a log line. */
export const ViewLogParamsSchema = v.looseObject({
  level: LoggingLevelSchema,
  logger: v.optional(v.string()),
  data: v.unknown(),
});

const pixels = v.optional(v.pipe(v.number(), v.finite(), v.minValue(0)));

/** `ui/notifications/size-changed`: the view's content size in CSS pixels. */
export const ViewSizeParamsSchema = v.looseObject({ width: pixels, height: pixels });
