import * as v from 'valibot';
import { cacheEntries } from './cache.js';
import { type ContentBlock, ContentBlockSchema } from './content.js';
import { paginatedEntries, resultEntries } from './result.js';
import { ToolSchema } from './tool-definition.js';

export {
  type Tool,
  type ToolAnnotations,
  ToolAnnotationsSchema,
  type ToolExecution,
  ToolExecutionSchema,
  ToolSchema,
} from './tool-definition.js';

/** `tools/list` result: one page, plus cache hints in 2026-07-28. */
export const ListToolsResultSchema = v.looseObject({
  ...resultEntries,
  ...paginatedEntries,
  ...cacheEntries,
  tools: v.array(ToolSchema),
});
/** The output type of {@link ListToolsResultSchema}: a value it parsed. */
export type ListToolsResult = v.InferOutput<typeof ListToolsResultSchema>;

/**
 * A completed `tools/call`. `content` keeps every part in order; `isError: true`
 * is a tool failure the model should see. `structuredContent` (2025-06-18+) was an
 * object until 2025-11-25 and may be any JSON value since 2026-07-28, so any
 * value is accepted; checking it against `outputSchema` is the caller's step.
 */
export const CallToolResultSchema = v.looseObject({
  ...resultEntries,
  content: v.array(ContentBlockSchema),
  structuredContent: v.optional(v.unknown()),
  isError: v.optional(v.boolean()),
});
/** The output type of {@link CallToolResultSchema}: a value it parsed. */
export type CallToolResult = v.InferOutput<typeof CallToolResultSchema>;

/**
 * What `callTool` returns: every part verbatim and in wire order, plus the text parts joined; any other
 * member the server's result carried (`resultType`, a later revision's field) is kept on it as it came. It lives beside the
 * wire shape it is read from so that `ToolError` (errors/, below the client) can carry one.
 */
export interface ToolResult {
  /** Every content part exactly as the server sent it, in order (unknown kinds included). */
  readonly content: readonly ContentBlock[];
  /** The `text` of every text part, concatenated in order. */
  readonly text: string;
  readonly isError: boolean;
  readonly structuredContent?: unknown;
  readonly _meta?: Record<string, unknown>;
}
