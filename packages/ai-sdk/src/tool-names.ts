import type { Tool } from '@mcp/core';

/** Longest tool name the providers take (OpenAI, Anthropic and Gemini all stop at 64). */
export const MAX_TOOL_NAME_LENGTH = 64;

/** Between a source's name and a tool's name: `github__create_issue`. */
export const PREFIX_SEPARATOR = '__';

/** What providers accept in a tool name; everything else becomes `_`. */
const INVALID = /[^A-Za-z0-9_-]/g;

/** One tool as listed by one source, before it has the name the model sees. */
export interface ListedTool {
  /** Index of the source (client) that listed it. */
  readonly source: number;
  readonly tool: Tool;
}

/** A listed tool under the name the model sees. */
export interface NamedTool extends ListedTool {
  readonly name: string;
}

/** `text` made a valid provider tool name: only letters, digits, `_` and `-`, 1 to 64 characters. */
export function validToolName(text: string): string {
  const valid = text.replace(INVALID, '_').slice(0, MAX_TOOL_NAME_LENGTH);
  return valid === '' ? '_' : valid;
}

/**
 * Names the model sees for the tools of every source, in listing order.
 *
 * 1. A tool's name is its MCP name, unless `prefixAll` is set or another source
 *    lists the same name: then it is `<source name>__<MCP name>`.
 * 2. The result is made valid ({@link validToolName}); when a prefixed name
 *    is too long, the source's name is cut first, so the tool's stays whole.
 * 3. Names still taken get `_2`, `_3`, … (cut so the whole stays within 64). A
 *    tool whose name needed no change claims it before any tool whose name was
 *    changed, so a tool listed as `a_b` keeps that name over a tool `a.b`.
 */
export function nameTools(
  sourceNames: readonly string[],
  listings: readonly (readonly Tool[])[],
  prefixAll: boolean,
): NamedTool[] {
  const sourcesOf = new Map<string, Set<number>>();
  listings.forEach((tools, source) => {
    for (const { name } of tools) {
      const sources = sourcesOf.get(name) ?? new Set();
      sources.add(source);
      sourcesOf.set(name, sources);
    }
  });
  const wanted = listings.flatMap((tools, source) =>
    tools.map((tool) => {
      const prefixed = prefixAll || (sourcesOf.get(tool.name)?.size ?? 0) > 1;
      const sourceName = sourceNames[source] ?? '';
      if (!prefixed) return { source, tool, full: tool.name, valid: validToolName(tool.name) };
      return {
        source,
        tool,
        full: `${sourceName}${PREFIX_SEPARATOR}${tool.name}`,
        valid: prefixedName(sourceName, tool.name),
      };
    }),
  );
  const taken = new Set<string>();
  const names = new Map<(typeof wanted)[number], string>();
  const claim = (entry: (typeof wanted)[number]) => names.set(entry, unique(entry.valid, taken));
  for (const entry of wanted) if (entry.valid === entry.full) claim(entry);
  for (const entry of wanted) if (entry.valid !== entry.full) claim(entry);
  return wanted.map((entry) => ({ source: entry.source, tool: entry.tool, name: names.get(entry) ?? entry.valid }));
}

/** `<source>__<tool>` made valid; past 64 characters the source's part is cut first, so the tool's name stays whole. */
function prefixedName(source: string, tool: string): string {
  const validTool = validToolName(tool);
  const room = Math.max(1, MAX_TOOL_NAME_LENGTH - PREFIX_SEPARATOR.length - validTool.length);
  return validToolName(`${validToolName(source).slice(0, room)}${PREFIX_SEPARATOR}${validTool}`);
}

/** `name`, or the first of `name_2`, `name_3`, … not in `taken` (then added to it). */
export function unique(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) {
    const suffix = `_${n}`;
    candidate = `${name.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length)}${suffix}`;
  }
  taken.add(candidate);
  return candidate;
}
