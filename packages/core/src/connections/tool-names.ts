import type { Tool } from '../protocol/tools.js';
import { excerpt } from '../util/excerpt.js';

/** Longest tool name the providers take (OpenAI, Anthropic and Gemini all stop at 64). */
export const MAX_TOOL_NAME_LENGTH = 64;

/** Between a source's name and a tool's name: `github__create_issue`. */
export const PREFIX_SEPARATOR = '__';

/**
 * Longest name the app may give a source (a server's name in a set, a record
 * key or a string `prefix` of `@mcp/ai-sdk`), so that a prefixed name always holds the whole prefix and some of the tool's name.
 */
export const MAX_SOURCE_NAME_LENGTH = 32;

/** What providers accept in a tool name; everything else becomes `_`. */
const INVALID = /[^A-Za-z0-9_-]/g;

/**
 * A source's name: runs of letters, digits and `-` joined by single `_`. No
 * `__` inside and no `_` at either end, so one source's `<name>__` can never
 * begin another source's prefixed names (names that differ only in case are
 * refused too, since prefixes are compared without case).
 */
const SOURCE_NAME = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;

/** One tool as listed by one source, before it has the name the model sees. */
export interface ListedTool {
  /** Index of the source (client or server) that listed it. */
  readonly source: number;
  readonly tool: Tool;
}

/** A listed tool under the name the model sees. */
export interface NamedTool extends ListedTool {
  readonly name: string;
  /**
   * The same for the same tool in every listing of its source, so a watcher can
   * give it the same name. It holds the source's name, not its place, so a
   * source added or removed before it leaves the key as it was.
   */
  readonly key: string;
}

/** What {@link nameTools} names. */
export interface Naming {
  /** Each source's name, the app's (checked with {@link checkSourceNames}). */
  readonly sources: readonly string[];
  /** Each source's tools, in listing order. */
  readonly listings: readonly (readonly Tool[])[];
  /** Whether every tool is prefixed, not only those whose name another source lists too. */
  readonly prefixAll: boolean;
  /** The names given before, by {@link NamedTool.key}: a tool still listed keeps its name. */
  readonly previous?: ReadonlyMap<string, string>;
  /**
   * Told of each tool whose listed name lies in another source's prefix, and
   * what it is named instead; `caller` begins the message.
   */
  readonly warn?: (message: string) => void;
  /** Who names the tools, for the start of each warning (`mcpToolSet`, `Servers`). */
  readonly caller: string;
}

/** `text` made a valid provider tool name: only letters, digits, `_` and `-`, 1 to 64 characters. */
export function validToolName(text: string): string {
  const valid = text.replace(INVALID, '_').slice(0, MAX_TOOL_NAME_LENGTH);
  return valid === '' ? '_' : valid;
}

/**
 * Whether `name` can be a source's name: letters, digits and `-`, with single
 * `_` between them, at most {@link MAX_SOURCE_NAME_LENGTH} characters.
 */
export function isSourceName(name: string): boolean {
  return name.length <= MAX_SOURCE_NAME_LENGTH && SOURCE_NAME.test(name);
}

/** Why `name` cannot be a source's name, for an error message that begins with what it is. */
export const SOURCE_NAME_RULE = `letters, digits and '-' (single '_' between them), at most ${MAX_SOURCE_NAME_LENGTH} characters`;

/**
 * What two source names that are the same source share: prefixes are compared
 * without case (so `GitHub__x` would stand in `github`'s names), and so are names.
 */
export function foldSourceName(name: string): string {
  return name.toLowerCase();
}

/**
 * Throws a TypeError unless every one of `names` can be a source's name (see
 * {@link isSourceName}) and no two are the same but for case; `what` says what
 * they are, and `caller` begins the message.
 */
export function checkSourceNames(names: readonly string[], what: string, caller: string): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (!isSourceName(name)) {
      throw new TypeError(
        `${caller}: ${what} ${JSON.stringify(name)} cannot prefix tool names: use ${SOURCE_NAME_RULE}`,
      );
    }
    const folded = foldSourceName(name);
    if (seen.has(folded)) throw new TypeError(`${caller}: two ${what}s are ${JSON.stringify(name)} but for case`);
    seen.add(folded);
  }
}

/** A server's tool name for a message: quoted, and cut past 100 characters. */
export function quotedName(name: string): string {
  return JSON.stringify(excerpt(name, 100));
}

/**
 * Names the model sees for the tools of every source, in listing order. Each
 * source owns the names that begin with its prefix, `<source>__`: no other
 * source's tool is ever given one, so a server cannot stand in for another
 * under a name the app's prompt or approval list uses.
 *
 * 1. A tool keeps the name it had before (`previous`) while it is listed, so a
 *    tool another source adds later cannot rename it.
 * 2. Otherwise its name is its MCP name made valid ({@link validToolName}),
 *    unless `prefixAll` is set, another source lists a tool of the same valid
 *    name, or the name begins with another source's prefix (in any case): then it is
 *    `<source>__<MCP name>`, made valid and cut to 64 characters in the tool's
 *    part (the source's part is always whole).
 * 3. Names still taken get `_2`, `_3`, …; one that would then begin with
 *    another source's prefix is prefixed with its own source instead. A tool
 *    whose name needed no change claims it before any tool whose name was
 *    changed, so a tool listed as `a_b` keeps that name over a tool `a.b`.
 */
export function nameTools({ sources, listings, prefixAll, previous, warn, caller }: Naming): NamedTool[] {
  const sourcesOf = new Map<string, Set<number>>();
  const listed = listings.flatMap((tools, source) => {
    const seen = new Map<string, number>();
    return tools.map((tool) => {
      const nth = seen.get(tool.name) ?? 0;
      seen.set(tool.name, nth + 1);
      const plain = validToolName(tool.name);
      sourcesOf.set(plain, (sourcesOf.get(plain) ?? new Set()).add(source));
      return { source, tool, plain, key: JSON.stringify([sources[source], tool.name, nth]) };
    });
  });
  // Case aside, so a server cannot list `GITHUB__create_issue` next to the app's `github`.
  const prefixes = sources.map((name) => foldSourceName(`${name}${PREFIX_SEPARATOR}`));
  const ownerOf = (name: string, source: number) => {
    const folded = foldSourceName(name);
    return prefixes.findIndex((prefix, index) => index !== source && folded.startsWith(prefix));
  };
  const wanted = listed.map((entry) => {
    const sourceName = sources[entry.source] ?? '';
    const own = `${sourceName}${PREFIX_SEPARATOR}${entry.plain}`.slice(0, MAX_TOOL_NAME_LENGTH);
    const owner = ownerOf(entry.plain, entry.source);
    const prefixed = prefixAll || owner >= 0 || (sourcesOf.get(entry.plain)?.size ?? 0) > 1;
    const unchanged = prefixed
      ? own === `${sourceName}${PREFIX_SEPARATOR}${entry.tool.name}`
      : entry.plain === entry.tool.name;
    return { ...entry, own, owner, wanted: prefixed ? own : entry.plain, unchanged };
  });

  const taken = new Set<string>();
  const names = new Map<(typeof wanted)[number], string>();
  const claim = (entry: (typeof wanted)[number], name: string) => {
    taken.add(name);
    names.set(entry, name);
  };
  for (const entry of wanted) {
    const before = previous?.get(entry.key);
    if (before !== undefined && !taken.has(before)) claim(entry, before);
  }
  for (const entry of wanted) {
    if (!names.has(entry) && entry.unchanged && !taken.has(entry.wanted)) claim(entry, entry.wanted);
  }
  for (const entry of wanted) {
    if (names.has(entry)) continue;
    const name = firstFree(entry.wanted, taken);
    claim(entry, ownerOf(name, entry.source) >= 0 ? firstFree(entry.own, taken) : name);
  }

  return wanted.map((entry) => {
    const name = names.get(entry) ?? entry.own;
    const owner = sources[entry.owner];
    if (owner !== undefined) {
      warn?.(
        `${caller}: tool ${quotedName(entry.tool.name)} of ${sources[entry.source]} is named ${name}: ` +
          `${owner}${PREFIX_SEPARATOR} names the tools of ${owner}`,
      );
    }
    return { source: entry.source, tool: entry.tool, key: entry.key, name };
  });
}

/** `name`, or the first of `name_2`, `name_3`, … not in `taken` (each cut so the whole stays within 64). */
function firstFree(name: string, taken: ReadonlySet<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) {
    const suffix = `_${n}`;
    candidate = `${name.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length)}${suffix}`;
  }
  return candidate;
}
