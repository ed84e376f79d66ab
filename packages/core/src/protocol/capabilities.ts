import * as v from 'valibot';
import { JsonObjectSchema } from './json.js';

/** Open-ended capability settings keyed by name (`experimental`, `extensions`). */
const SettingsByNameSchema = v.record(v.string(), JsonObjectSchema);

const ListChangedSchema = v.looseObject({ listChanged: v.optional(v.boolean()) });

/**
 * What the client can do. Sent once in `initialize` (legacy) or on every request
 * in `_meta` (2026-07-28). Every level is loose: capabilities are an open set.
 * - `roots.listChanged`: legacy only; 2026-07-28 declares `roots: {}`.
 * - `sampling.context` / `sampling.tools`: 2025-11-25+.
 * - `elicitation.form` / `elicitation.url`: 2025-11-25+; `{}` means form only.
 * - `tasks`: 2025-11-25; `extensions`: 2026-07-28.
 */
export const ClientCapabilitiesSchema = v.looseObject({
  experimental: v.optional(SettingsByNameSchema),
  roots: v.optional(ListChangedSchema),
  sampling: v.optional(v.looseObject({ context: v.optional(JsonObjectSchema), tools: v.optional(JsonObjectSchema) })),
  elicitation: v.optional(v.looseObject({ form: v.optional(JsonObjectSchema), url: v.optional(JsonObjectSchema) })),
  tasks: v.optional(JsonObjectSchema),
  extensions: v.optional(SettingsByNameSchema),
});
/** The output type of {@link ClientCapabilitiesSchema}: a value it parsed. */
export type ClientCapabilities = v.InferOutput<typeof ClientCapabilitiesSchema>;

/**
 * What the server offers, from `InitializeResult` (legacy) or `DiscoverResult`
 * (2026-07-28). A feature is usable only when its key is present (§Capabilities).
 * `completions` appears in 2025-03-26; `tasks` in 2025-11-25 (`{list?, cancel?,
 * requests?: {tools?: {call?}}}`); `extensions` in 2026-07-28.
 */
export const ServerCapabilitiesSchema = v.looseObject({
  experimental: v.optional(SettingsByNameSchema),
  logging: v.optional(JsonObjectSchema),
  completions: v.optional(JsonObjectSchema),
  prompts: v.optional(ListChangedSchema),
  resources: v.optional(v.looseObject({ subscribe: v.optional(v.boolean()), listChanged: v.optional(v.boolean()) })),
  tools: v.optional(ListChangedSchema),
  tasks: v.optional(JsonObjectSchema),
  extensions: v.optional(SettingsByNameSchema),
});
/** The output type of {@link ServerCapabilitiesSchema}: a value it parsed. */
export type ServerCapabilities = v.InferOutput<typeof ServerCapabilitiesSchema>;
