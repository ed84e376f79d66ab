import { type CallOptions, type Client, type Tool as McpTool, ToolError } from '@mcp/core';
import { dynamicTool, jsonSchema, type ToolSet } from 'ai';
import { type MediaStyle, toModelOutput } from './model-output.js';
import { type NamedTool, nameTools, unique, validToolName } from './tool-names.js';

/** One client, an array of them, or a record of them keyed by the name to prefix their tools with. */
export type McpToolSource = Client | readonly Client[] | Readonly<Record<string, Client>>;

/** How {@link mcpToolSet} names and calls the tools. */
export interface McpToolSetOptions {
  /**
   * Which tool names get their source's name in front, as `<source>__<tool>`.
   * A source's name is its record key; for an array or a single client, the
   * server's name (`client.serverInfo.name`), with `_2`, `_3`, … after a name
   * another client of the array already has.
   * - not given: only names more than one source lists (every one of them);
   * - `true`: every name;
   * - a string (one client only): every name, with this string as the prefix.
   *
   * Whatever the prefix, the name the model sees is then made valid for every
   * provider (letters, digits, `_`, `-`; other characters become `_`; at most
   * 64 characters) and unique (`_2`, `_3`, … after a name already taken).
   * Each tool's `metadata.mcp` says which server and MCP name it stands for.
   */
  readonly prefix?: boolean | string;
  /**
   * Given to every `tools/call` (`timeout`, `maxTotalTimeout`, `onProgress`,
   * `validateOutput`, …), or a function that makes them for each call (to route
   * one call's progress by its `toolCallId`, say). Their `signal` and the AI
   * SDK's `abortSignal` both cancel a call. The listing uses the client's own
   * defaults.
   */
  readonly callOptions?: CallOptions | ((call: McpToolCall) => CallOptions);
}

/** One call the model made, as a `callOptions` function receives it. */
export interface McpToolCall {
  /** The AI SDK's id of this tool call. */
  readonly toolCallId: string;
  /** The tool's name in the set, as the model called it. */
  readonly name: string;
  /** The source's name and the tool's MCP name, as in the tool's `metadata.mcp`. */
  readonly mcp: McpToolMetadata;
}

/** What a tool of the set stands for, in its `metadata`: the source's name and the tool's MCP name. */
export interface McpToolMetadata {
  /**
   * The source the tool came from: its record key, or for an array or a single
   * client the server's name (`serverInfo.name`, `_2`, `_3`, … after a repeated one).
   */
  readonly server: string;
  /** The tool's name on that server, as `client.callTool` takes it (the set's key may be prefixed or changed). */
  readonly tool: string;
}

/** The clients of a source, each with the name its tools are prefixed with when they must be. */
export interface NamedClients {
  readonly clients: readonly Client[];
  readonly names: readonly string[];
}

/**
 * Lists the tools of every client of `source` and returns them as a Vercel AI
 * SDK `ToolSet`, ready for `generateText({ tools })` or `streamText`. Each tool:
 *
 * - offers the model the server's `inputSchema` exactly as listed (through the
 *   app's own `ai` `jsonSchema()`; the server validates the arguments);
 * - calls the tool on its client; the AI SDK's `abortSignal` cancels the call
 *   (the server gets `notifications/cancelled`);
 * - throws a `ToolError` (from `@mcp/core`, carrying the result) when the tool
 *   reports `isError`, so the AI SDK records a tool error and the model reads
 *   its message (`tool <name> failed: <text>`) in the next step;
 * - returns the MCP `ToolResult` as its output, which `toModelOutput` turns
 *   into what the model reads: `structuredContent` as JSON, else the content
 *   parts (text as text, images and audio as media, see the README).
 *
 * The set is a snapshot of the listings: to follow `notifications/tools/list_changed`
 * use {@link watchMcpToolSet}, or call this again. Naming: {@link McpToolSetOptions.prefix}.
 */
export async function mcpToolSet(source: McpToolSource, options: McpToolSetOptions = {}): Promise<ToolSet> {
  const named = namedClients(source, options.prefix);
  const listings = await Promise.all(named.clients.map((client) => client.listTools()));
  return buildToolSet(named, listings, options);
}

/** The clients of `source` and their names (see {@link McpToolSetOptions.prefix}). */
export function namedClients(source: McpToolSource, prefix: boolean | string | undefined): NamedClients {
  if (typeof source !== 'object' || source === null) {
    throw new TypeError('mcpToolSet: the source is a Client, an array of clients or a record of them');
  }
  const single = !Array.isArray(source) && isClient(source);
  if (typeof prefix === 'string' && !single) {
    throw new TypeError('mcpToolSet: a string prefix names one client; give several clients as a record instead');
  }
  if (single) {
    const name = typeof prefix === 'string' ? prefix : serverName(source);
    return { clients: [source], names: [name] };
  }
  const entries: [string | undefined, Client][] = Array.isArray(source)
    ? source.map((client: Client) => [undefined, client])
    : Object.entries(source as Readonly<Record<string, Client>>);
  for (const [key, client] of entries) {
    if (!isClient(client)) throw new TypeError(`mcpToolSet: ${key ?? 'an array item'} is not a Client`);
  }
  const taken = new Set<string>();
  return {
    clients: entries.map(([, client]) => client),
    names: entries.map(([key, client]) => key ?? unique(validToolName(serverName(client)), taken)),
  };
}

/** The `ToolSet` for `listings` (one per client of `named`, in order). */
export function buildToolSet(
  named: NamedClients,
  listings: readonly (readonly McpTool[])[],
  options: McpToolSetOptions,
): ToolSet {
  const tools: ToolSet = {};
  for (const entry of nameTools(named.names, listings, options.prefix !== undefined && options.prefix !== false)) {
    const client = named.clients[entry.source];
    const server = named.names[entry.source];
    if (client && server !== undefined) tools[entry.name] = aiTool(client, server, entry, options.callOptions ?? {});
  }
  return tools;
}

/**
 * Outputs made under ai 7 (whose tool calls carry `context`), so `toModelOutput`
 * writes media as ai 7 `file` parts. An output it has not seen (one read back
 * from stored UI messages, say) gets the ai 6 parts, which ai 7 still reads.
 */
const madeUnderAi7 = new WeakSet<object>();

function aiTool(
  client: Client,
  server: string,
  { tool, name }: NamedTool,
  makeCallOptions: NonNullable<McpToolSetOptions['callOptions']>,
) {
  const title = tool.title ?? tool.annotations?.title;
  const mcp: McpToolMetadata = { server, tool: tool.name };
  return dynamicTool({
    ...(tool.description === undefined ? {} : { description: tool.description }),
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
      const result = await client.callTool(tool.name, args, signal ? { ...callOptions, signal } : callOptions);
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

function isClient(source: unknown): source is Client {
  return typeof (source as Partial<Client> | null)?.listTools === 'function';
}

function serverName(client: Client): string {
  return client.serverInfo?.name ?? 'mcp';
}
