import * as v from 'valibot';
import {
  AudioContentSchema,
  ContentBlockSchema,
  ImageContentSchema,
  RoleSchema,
  TextContentSchema,
  UnknownContentBlockSchema,
} from './content.js';
import { byTag, JsonObjectSchema } from './json.js';
import { MetaSchema } from './meta.js';
import { resultEntries } from './result.js';
import { ToolSchema } from './tool-definition.js';

/** The model asks to call a tool (2025-11-25+ sampling with tools). */
export const ToolUseContentSchema = v.looseObject({
  type: v.literal('tool_use'),
  id: v.string(),
  name: v.string(),
  input: JsonObjectSchema,
  _meta: v.optional(MetaSchema),
});
/** The output type of {@link ToolUseContentSchema}: a value it parsed. */
export type ToolUseContent = v.InferOutput<typeof ToolUseContentSchema>;

/** The result of a `tool_use`, matched by `toolUseId` (2025-11-25+). */
export const ToolResultContentSchema = v.looseObject({
  type: v.literal('tool_result'),
  toolUseId: v.string(),
  content: v.array(ContentBlockSchema),
  structuredContent: v.optional(v.unknown()),
  isError: v.optional(v.boolean()),
  _meta: v.optional(MetaSchema),
});
/** The output type of {@link ToolResultContentSchema}: a value it parsed. */
export type ToolResultContent = v.InferOutput<typeof ToolResultContentSchema>;

/** One content block of a sampling message: text, image, audio (2025-03-26+), tool_use / tool_result (2025-11-25+). */
export const SamplingContentSchema = byTag(
  'type',
  {
    text: TextContentSchema,
    image: ImageContentSchema,
    audio: AudioContentSchema,
    tool_use: ToolUseContentSchema,
    tool_result: ToolResultContentSchema,
  },
  UnknownContentBlockSchema,
);
/** The output type of {@link SamplingContentSchema}: a value it parsed. */
export type SamplingContent = v.InferOutput<typeof SamplingContentSchema>;

/** A block, or (2025-11-25+) a list of blocks. */
const SamplingContentOrListSchema = v.lazy((input) =>
  Array.isArray(input) ? v.array(SamplingContentSchema) : SamplingContentSchema,
);

/** One turn of the conversation a server asks the client to sample. */
export const SamplingMessageSchema = v.looseObject({
  role: RoleSchema,
  content: SamplingContentOrListSchema,
  _meta: v.optional(MetaSchema),
});
/** The output type of {@link SamplingMessageSchema}: a value it parsed. */
export type SamplingMessage = v.InferOutput<typeof SamplingMessageSchema>;

/** Advisory model choice: name hints in order, then 0–1 priorities. The client MAY ignore all of it. */
export const ModelPreferencesSchema = v.looseObject({
  hints: v.optional(v.array(v.looseObject({ name: v.optional(v.string()) }))),
  costPriority: v.optional(v.number()),
  speedPriority: v.optional(v.number()),
  intelligencePriority: v.optional(v.number()),
});
/** The output type of {@link ModelPreferencesSchema}: a value it parsed. */
export type ModelPreferences = v.InferOutput<typeof ModelPreferencesSchema>;

/** How the model may use the offered tools (2025-11-25+); absent means `auto`. */
export const ToolChoiceSchema = v.looseObject({ mode: v.optional(v.picklist(['auto', 'required', 'none'])) });
/** The output type of {@link ToolChoiceSchema}: a value it parsed. */
export type ToolChoice = v.InferOutput<typeof ToolChoiceSchema>;

/**
 * `sampling/createMessage` params: a server request (legacy) or an MRTR input
 * request (2026-07-28; deprecated). `tools` / `toolChoice` need the client's
 * `sampling.tools` capability; `includeContext` other than `"none"` is deprecated.
 */
export const CreateMessageRequestParamsSchema = v.looseObject({
  messages: v.array(SamplingMessageSchema),
  modelPreferences: v.optional(ModelPreferencesSchema),
  systemPrompt: v.optional(v.string()),
  includeContext: v.optional(v.picklist(['none', 'thisServer', 'allServers'])),
  temperature: v.optional(v.number()),
  maxTokens: v.number(),
  stopSequences: v.optional(v.array(v.string())),
  metadata: v.optional(JsonObjectSchema),
  tools: v.optional(v.array(ToolSchema)),
  toolChoice: v.optional(ToolChoiceSchema),
  task: v.optional(JsonObjectSchema),
  _meta: v.optional(MetaSchema),
});
/** The output type of {@link CreateMessageRequestParamsSchema}: a value it parsed. */
export type CreateMessageRequestParams = v.InferOutput<typeof CreateMessageRequestParamsSchema>;

/**
 * What the client answers: the sampled message, the model that produced it, and
 * why it stopped (`endTurn`, `stopSequence`, `maxTokens`, `toolUse`, or any other string).
 */
export const CreateMessageResultSchema = v.looseObject({
  ...resultEntries,
  role: RoleSchema,
  content: SamplingContentOrListSchema,
  model: v.string(),
  stopReason: v.optional(v.string()),
});
/** The output type of {@link CreateMessageResultSchema}: a value it parsed. */
export type CreateMessageResult = v.InferOutput<typeof CreateMessageResultSchema>;

/**
 * The first breach of the tool-loop rules in a conversation to sample, or
 * undefined when it keeps them (2025-11-25 sampling § Tool use): a user message
 * with a `tool_result` holds tool results only, and every assistant `tool_use`
 * is answered by a `tool_result` of the same id in the very next message, a user
 * message that answers nothing else; no id is used, or answered, twice. Checked before a handler runs, so a model
 * is never handed a conversation no provider accepts.
 */
export function toolLoopBreach(messages: readonly SamplingMessage[]): string | undefined {
  for (const [index, { role, content }] of messages.entries()) {
    const blocks = Array.isArray(content) ? content : [content];
    const results = blocks.flatMap((block) =>
      block.type === 'tool_result' ? [(block as ToolResultContent).toolUseId] : [],
    );
    if (results.length > 0 && (role !== 'user' || results.length < blocks.length)) {
      return `messages[${index}]: a message with a tool_result must be a user message holding tool results only`;
    }
    const asked = uses(messages[index - 1]);
    if (asked.length > 0 || results.length > 0) {
      // Sets alone would let a repeated id through: each id is asked once and answered once.
      const answered = new Set(results);
      const once = new Set(asked).size === asked.length && answered.size === results.length;
      if (!once || asked.length !== results.length || !asked.every((id) => answered.has(id))) {
        return `messages[${index}]: its tool results must answer exactly the tool_use ids of the message before it, each once`;
      }
    }
  }
  return uses(messages.at(-1)).length > 0
    ? `messages[${messages.length - 1}]: a tool_use without its tool_result`
    : undefined;
}

/** The `tool_use` ids of an assistant message. */
function uses(message: SamplingMessage | undefined): string[] {
  if (message?.role !== 'assistant') return [];
  const blocks = Array.isArray(message.content) ? message.content : [message.content];
  return blocks.flatMap((block) => (block.type === 'tool_use' ? [(block as ToolUseContent).id] : []));
}
