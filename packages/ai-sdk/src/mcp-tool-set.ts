import type { CallToolOptions, Client, Tool as McpTool } from '@mcp/core';
import {
  checkSourceNames,
  type Servers,
  type ToolBounds,
  type ToolCatalogue,
  toolBounds,
  toolCatalogue,
} from '@mcp/core/connections';
import type { ToolSet } from 'ai';
import { aiTool } from './ai-tool.js';
import { isServers, serversToolSet } from './servers-tool-set.js';

/**
 * One client, an array of them, or a record of them keyed by the app's name
 * for each: the name its tools are prefixed with (`<key>__<tool>`) and that
 * their `metadata.mcp.server` gives. A key is letters, digits and `-`, with
 * single `_` between them, at most 32 characters (`MAX_SOURCE_NAME_LENGTH`).
 * The clients of an array are named by their place in it, `s0`, `s1`, …; a
 * single client is `s0` unless a string `prefix` names it. What a server says
 * about itself (`serverInfo.name`) never names it.
 *
 * Or a server set (`Servers` from `@mcp/core/connections`): the tools of every
 * ready server, named by the set's own catalogue (each server's name is its
 * name in the set), so the set's `tools` options name and bound them instead
 * of `prefix`, `maxDescriptionChars` and `maxSchemaBytes`.
 */
export type McpToolSource = Client | readonly Client[] | Readonly<Record<string, Client>> | Servers;

/** How {@link mcpToolSet} names, bounds and calls the tools. */
export interface McpToolSetOptions {
  /**
   * Which tool names get their source's name in front, as `<source>__<tool>`.
   * A source's name is the app's, never the server's: its record key; for an
   * array, its place in it (`s0`, `s1`, …); for a single client, the string
   * given here, else `s0` (see {@link McpToolSource}).
   * - not given: only names more than one source lists (every one of them);
   * - `true`: every name;
   * - a string (one client only): every name, with this string as the prefix.
   *
   * Each source owns the names that begin with `<source>__`: a tool another
   * source lists under such a name (a server listing `github__create_issue`
   * next to the app's `github`) is prefixed with its own source's name
   * instead (`docs__github__create_issue`), with `onWarning`.
   *
   * Whatever the prefix, the name the model sees is then made valid for every
   * provider (letters, digits, `_`, `-`; other characters become `_`; at most
   * 64 characters, cut in the tool's part) and unique (`_2`, `_3`, … after a
   * name already taken). Each tool's `metadata.mcp` says which source and MCP
   * name it stands for.
   */
  readonly prefix?: boolean | string;
  /**
   * Given to every `tools/call` (`timeout`, `maxTotalTimeout`, `onProgress`,
   * `validateOutput`, `meta`, …), or a function that makes them for each call (to route
   * one call's progress by its `toolCallId`, say). Their `signal` and the AI
   * SDK's `abortSignal` both cancel a call. The listing uses the client's own
   * defaults.
   */
  readonly callOptions?: CallToolOptions | ((call: McpToolCall) => CallToolOptions);
  /**
   * Longest description a tool offers the model, in UTF-16 code units
   * (default 4000, `DEFAULT_MAX_DESCRIPTION_CHARS`). `Infinity` means no bound. A
   * longer one is cut to this length, its last character `…`, with `onWarning`.
   */
  readonly maxDescriptionChars?: number;
  /**
   * Largest input schema a tool may offer the model, in bytes of its JSON in
   * UTF-8 (default 65536: 64 KiB, `DEFAULT_MAX_SCHEMA_BYTES`). `Infinity` means
   * no bound. A tool whose schema is larger is left out of the set, with
   * `onWarning`, and takes no name from the others.
   */
  readonly maxSchemaBytes?: number;
  /**
   * Told, in words, of what the set changed from the listing: a description
   * cut, a tool left out for its schema, a tool renamed because its name lay
   * in another source's prefix. Without it, these go unreported. One that
   * throws makes `mcpToolSet` reject with its error (a watcher gives it to `onError`).
   */
  readonly onWarning?: (message: string) => void;
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
   * The app's name for the source the tool came from: its record key, `s0`,
   * `s1`, … for the clients of an array, and for a single client the string
   * `prefix`, else `s0`. Never what the server calls itself.
   */
  readonly server: string;
  /** The tool's name on that server, as `client.callTool` takes it (the set's key may be prefixed or changed). */
  readonly tool: string;
}

/** What a tool set is made of: the source's clients, each with its name, and the options that name, bound and call them. */
export interface ToolSetRecipe extends ToolBounds {
  readonly clients: readonly Client[];
  readonly names: readonly string[];
  readonly prefixAll: boolean;
  readonly callOptions: NonNullable<McpToolSetOptions['callOptions']>;
}

/** A built set, with the catalogue it was built from (each tool's name by its key, what it changed from the listings). */
export interface BuiltToolSet {
  readonly tools: ToolSet;
  readonly catalogue: ToolCatalogue;
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
 * From a server set it is the tools of its ready servers as they are now (its
 * connections keep them current), with nothing listed; call it again for each
 * run, and a tool keeps its name while its server lists it.
 */
export async function mcpToolSet(source: McpToolSource, options: McpToolSetOptions = {}): Promise<ToolSet> {
  if (isServers(source)) {
    const built = serversToolSet(source, options);
    for (const warning of built.warnings) options.onWarning?.(warning);
    return built.tools;
  }
  const recipe = toolSetRecipe(source, options);
  const listings = await Promise.all(recipe.clients.map((client) => client.listTools()));
  const built = buildToolSet(recipe, listings);
  for (const warning of built.catalogue.warnings) options.onWarning?.(warning);
  return built.tools;
}

/**
 * The clients of `source`, their names (see {@link McpToolSource}) and the
 * options, checked: a TypeError for anything wrong, before anything is listed.
 */
export function toolSetRecipe(source: Exclude<McpToolSource, Servers>, options: McpToolSetOptions): ToolSetRecipe {
  if (typeof source !== 'object' || source === null) {
    throw new TypeError('mcpToolSet: the source is a Client, an array of clients or a record of them');
  }
  const { prefix } = options;
  const single = !Array.isArray(source) && isClient(source);
  if (typeof prefix === 'string' && !single) {
    throw new TypeError('mcpToolSet: a string prefix names one client; give several clients as a record instead');
  }
  const entries: [string, Client][] = single
    ? [[typeof prefix === 'string' ? prefix : 's0', source]]
    : Array.isArray(source)
      ? source.map((client: Client, index) => [`s${index}`, client])
      : Object.entries(source as Readonly<Record<string, Client>>);
  for (const [name, client] of entries) {
    if (!isClient(client)) {
      throw new TypeError(`mcpToolSet: ${Array.isArray(source) ? 'an array item' : name} is not a Client`);
    }
  }
  const names = entries.map(([name]) => name);
  checkSourceNames(names, single ? 'prefix' : 'key', 'mcpToolSet');
  return {
    clients: entries.map(([, client]) => client),
    names,
    prefixAll: prefix !== undefined && prefix !== false,
    callOptions: options.callOptions ?? {},
    ...toolBounds(options, 'mcpToolSet'),
  };
}

/**
 * The `ToolSet` for `listings` (one per client of `recipe`, in order), named
 * and bounded by `toolCatalogue`. Tools named in `previous` keep those names.
 */
export function buildToolSet(
  recipe: ToolSetRecipe,
  listings: readonly (readonly McpTool[])[],
  previous?: ToolCatalogue,
): BuiltToolSet {
  const catalogue = toolCatalogue(
    recipe.names.map((name, index) => ({ name, tools: listings[index] ?? [] })),
    { prefixAll: recipe.prefixAll, bounds: recipe, caller: 'mcpToolSet', ...(previous && { previous }) },
  );
  const clients = new Map(recipe.names.map((name, index) => [name, recipe.clients[index]]));
  const tools: ToolSet = {};
  for (const entry of catalogue.tools) {
    const client = clients.get(entry.server);
    if (client) tools[entry.name] = aiTool(() => client, entry, recipe.callOptions);
  }
  return { tools, catalogue };
}

function isClient(source: unknown): source is Client {
  return typeof (source as Partial<Client> | null)?.listTools === 'function';
}
