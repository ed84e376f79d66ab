import * as v from 'valibot';

/**
 * An icon a client may show (2025-11-25+ §Icons). `src` is only checked to be a
 * string here: which schemes are safe to load (`https:`, `data:`) is a rendering
 * decision, made where the icon is fetched.
 */
export const IconSchema = v.looseObject({
  src: v.string(),
  mimeType: v.optional(v.string()),
  sizes: v.optional(v.array(v.string())),
  theme: v.optional(v.picklist(['light', 'dark'])),
});
/** The output type of {@link IconSchema}: a value it parsed. */
export type Icon = v.InferOutput<typeof IconSchema>;

/** `icons` as it appears on implementations, tools, prompts, resources and templates. */
export const IconsSchema = v.array(IconSchema);

/**
 * Who is talking: `clientInfo` / `serverInfo`. `name` and `version` in every
 * revision; `title` since 2025-06-18; `description`, `icons`, `websiteUrl` since
 * 2025-11-25. Self-reported, so never a basis for security decisions.
 */
export const ImplementationSchema = v.looseObject({
  name: v.string(),
  version: v.string(),
  title: v.optional(v.string()),
  description: v.optional(v.string()),
  icons: v.optional(IconsSchema),
  websiteUrl: v.optional(v.string()),
});
/** The output type of {@link ImplementationSchema}: a value it parsed. */
export type Implementation = v.InferOutput<typeof ImplementationSchema>;
