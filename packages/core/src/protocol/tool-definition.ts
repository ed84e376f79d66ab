import * as v from 'valibot';
import { IconsSchema } from './implementation.js';
import { JsonObjectSchema, ObjectJsonSchemaSchema } from './json.js';
import { MetaSchema } from './meta.js';

/**
 * Hints about a tool's behaviour (2025-03-26+). Untrusted unless the server is:
 * never base a tool-use decision on them alone (§Tools, security).
 */
export const ToolAnnotationsSchema = v.looseObject({
  title: v.optional(v.string()),
  readOnlyHint: v.optional(v.boolean()),
  destructiveHint: v.optional(v.boolean()),
  idempotentHint: v.optional(v.boolean()),
  openWorldHint: v.optional(v.boolean()),
});
/** The output type of {@link ToolAnnotationsSchema}: a value it parsed. */
export type ToolAnnotations = v.InferOutput<typeof ToolAnnotationsSchema>;

/** 2025-11-25 `execution`: whether `tools/call` may or must be task-augmented. */
export const ToolExecutionSchema = v.looseObject({
  taskSupport: v.optional(v.picklist(['forbidden', 'optional', 'required'])),
});
/** The output type of {@link ToolExecutionSchema}: a value it parsed. */
export type ToolExecution = v.InferOutput<typeof ToolExecutionSchema>;

/**
 * A tool the client can call. `inputSchema` must be an object schema
 * (`type: "object"`, every revision); `outputSchema` (2025-06-18+) is any JSON
 * Schema object. Both are kept verbatim: validating arguments and structured
 * output against them is a separate step. Display name: `title`, then
 * `annotations.title`, then `name`.
 */
export const ToolSchema = v.looseObject({
  name: v.string(),
  title: v.optional(v.string()),
  description: v.optional(v.string()),
  inputSchema: ObjectJsonSchemaSchema,
  outputSchema: v.optional(JsonObjectSchema),
  annotations: v.optional(ToolAnnotationsSchema),
  icons: v.optional(IconsSchema),
  execution: v.optional(ToolExecutionSchema),
  _meta: v.optional(MetaSchema),
});
/** The output type of {@link ToolSchema}: a value it parsed. */
export type Tool = v.InferOutput<typeof ToolSchema>;
