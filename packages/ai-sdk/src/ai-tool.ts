import { type CallToolOptions, ToolError, type ToolResult } from '@mcp/core';
import type { CatalogueTool } from '@mcp/core/connections';
import { dynamicTool, jsonSchema, type ToolSet } from 'ai';
import type { McpToolMetadata, McpToolSetOptions } from './mcp-tool-set.js';
import { type MediaStyle, toModelOutput } from './model-output.js';

/** What runs a tool call: a `Client`, or a server set's `Connection`, found when the model calls. */
export interface ToolCaller {
  callTool(name: string, args: Record<string, unknown>, options: CallToolOptions): Promise<ToolResult>;
}

/**
 * Outputs made under ai 7 (whose tool calls carry `context`), so `toModelOutput`
 * writes media as ai 7 `file` parts. An output it has not seen (one read back
 * from stored UI messages, say) gets the ai 6 parts, which ai 7 still reads.
 */
const madeUnderAi7 = new WeakSet<object>();

/** One catalogue tool as an AI SDK tool that calls it through `caller`. */
export function aiTool(
  caller: () => ToolCaller,
  { tool, name, server, description }: CatalogueTool,
  makeCallOptions: NonNullable<McpToolSetOptions['callOptions']>,
): ToolSet[string] {
  const title = tool.title ?? tool.annotations?.title;
  const mcp: McpToolMetadata = { server, tool: tool.name };
  return dynamicTool({
    ...(description === undefined ? {} : { description }),
    ...(title === undefined ? {} : { title }),
    metadata: { mcp: { ...mcp } },
    inputSchema: jsonSchema(tool.inputSchema as Parameters<typeof jsonSchema>[0]),
    async execute(input, options) {
      const callOptions =
        typeof makeCallOptions === 'function'
          ? makeCallOptions({ toolCallId: options.toolCallId, name, mcp })
          : makeCallOptions;
      const signal = anySignal(callOptions.signal, options.abortSignal);
      const args = (input ?? {}) as Record<string, unknown>;
      const result = await caller().callTool(tool.name, args, signal ? { ...callOptions, signal } : callOptions);
      if (result.isError) throw new ToolError(tool.name, result);
      if ('context' in options) madeUnderAi7.add(result);
      return result;
    },
    toModelOutput({ output }) {
      const style: MediaStyle = madeUnderAi7.has(output as object) ? 'ai7' : 'ai6';
      return toModelOutput(output as Parameters<typeof toModelOutput>[0], style);
    },
  });
}

function anySignal(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  return a && b ? AbortSignal.any([a, b]) : (a ?? b);
}
