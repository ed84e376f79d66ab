import * as v from 'valibot';
import { cacheEntries } from './cache.js';
import { ContentBlockSchema, RoleSchema } from './content.js';
import { IconsSchema } from './implementation.js';
import { MetaSchema } from './meta.js';
import { paginatedEntries, resultEntries } from './result.js';

/** One argument a prompt template takes; every argument value is a string. */
export const PromptArgumentSchema = v.looseObject({
  name: v.string(),
  title: v.optional(v.string()),
  description: v.optional(v.string()),
  required: v.optional(v.boolean()),
});
/** The output type of {@link PromptArgumentSchema}: a value it parsed. */
export type PromptArgument = v.InferOutput<typeof PromptArgumentSchema>;

/** A prompt or prompt template the server offers; `title` 2025-06-18+, `icons` 2025-11-25+. */
export const PromptSchema = v.looseObject({
  name: v.string(),
  title: v.optional(v.string()),
  description: v.optional(v.string()),
  arguments: v.optional(v.array(PromptArgumentSchema)),
  icons: v.optional(IconsSchema),
  _meta: v.optional(MetaSchema),
});
/** The output type of {@link PromptSchema}: a value it parsed. */
export type Prompt = v.InferOutput<typeof PromptSchema>;

/** One message of a prompt: a role and exactly one content block. */
export const PromptMessageSchema = v.looseObject({ role: RoleSchema, content: ContentBlockSchema });
/** The output type of {@link PromptMessageSchema}: a value it parsed. */
export type PromptMessage = v.InferOutput<typeof PromptMessageSchema>;

/** `prompts/list` result: one page, plus cache hints in 2026-07-28. */
export const ListPromptsResultSchema = v.looseObject({
  ...resultEntries,
  ...paginatedEntries,
  ...cacheEntries,
  prompts: v.array(PromptSchema),
});
/** The output type of {@link ListPromptsResultSchema}: a value it parsed. */
export type ListPromptsResult = v.InferOutput<typeof ListPromptsResultSchema>;

/** A completed `prompts/get`. */
export const GetPromptResultSchema = v.looseObject({
  ...resultEntries,
  description: v.optional(v.string()),
  messages: v.array(PromptMessageSchema),
});
/** The output type of {@link GetPromptResultSchema}: a value it parsed. */
export type GetPromptResult = v.InferOutput<typeof GetPromptResultSchema>;
