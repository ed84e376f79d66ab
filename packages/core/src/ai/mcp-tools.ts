import type { Client } from '../client/client.js';
import type { CallOptions } from '../client/options.js';
import { ToolError } from '../errors/tool-error.js';
import { isModelVisible } from '../protocol/apps.js';
import type { ToolResult } from '../protocol/tools.js';

/** A server tool in the neutral shape AI toolkits take. */
export interface McpTool {
  /** The tool's name on the server. */
  readonly name: string;
  /** The tool's description, for the model; undefined when the server gave none. */
  readonly description: string | undefined;
  /** The tool's JSON Schema exactly as the server sent it; never re-derived. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
  /** Calls the tool; throws a `ToolError` carrying the result when the tool reports failure. */
  execute(args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<ToolResult>;
}

/**
 * Lists the server's tools and adapts each one, so an AI loop can offer them to
 * a model and run the calls it asks for. A failed call throws, which such loops
 * record as a failed tool call. A tool meant for MCP Apps views only (its
 * `_meta.ui.visibility` lacks `"model"`, see `isModelVisible`) is left out.
 */
export async function mcpTools(client: Client, options?: CallOptions): Promise<McpTool[]> {
  const tools = await client.listTools(options);
  return tools.filter(isModelVisible).map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    async execute(args, { signal } = {}) {
      const result = await client.callTool(tool.name, args, signal ? { signal } : undefined);
      if (result.isError) throw new ToolError(tool.name, result);
      return result;
    },
  }));
}
