import { isModelVisible } from '../protocol/apps.js';
import type { Tool } from '../protocol/tools.js';
import { cutDescription, schemaBytes, type ToolBounds } from './tool-bounds.js';
import { nameTools, quotedName } from './tool-names.js';

/** One source of tools for a catalogue: the app's name for it and its tools as listed. */
export interface CatalogueSource {
  /** The app's name for the source (a server's name in a set): it prefixes tool names, `<name>__<tool>`. */
  readonly name: string;
  /** The source's tools, in listing order. */
  readonly tools: readonly Tool[];
}

/** One tool of a catalogue, under the name the model sees. */
export interface CatalogueTool {
  /** The name the model sees: unique in the catalogue, valid for every provider, at most 64 characters. */
  readonly name: string;
  /** The app's name for the source that listed it. */
  readonly server: string;
  /** The tool as its source listed it; call it by `tool.name`. */
  readonly tool: Tool;
  /** The description to offer the model: the tool's own, cut to `maxDescriptionChars`. */
  readonly description?: string;
  /**
   * The same for the same tool in every listing of its source (its source's
   * name, its MCP name and which of the tools of that name it is), so a later
   * catalogue can give it the same name.
   */
  readonly key: string;
}

/** The tools of several sources under names no source can take from another. */
export interface ToolCatalogue {
  /** Every tool offered the model, by source in the order given, each in listing order. */
  readonly tools: readonly CatalogueTool[];
  /** Each tool's name by its key: give the catalogue as `previous` to the next one to keep them. */
  readonly names: ReadonlyMap<string, string>;
  /** What the catalogue changed from the listings: a description cut, a tool left out, a tool renamed. */
  readonly warnings: readonly string[];
}

/** How {@link toolCatalogue} names and bounds the tools. */
export interface CatalogueOptions {
  /** Whether every name gets its source's name in front, not only those another source lists too. */
  readonly prefixAll?: boolean;
  /** The bounds on each tool (see `toolBounds`). */
  readonly bounds: ToolBounds;
  /** The catalogue before this one: a tool still listed keeps the name it had there. */
  readonly previous?: ToolCatalogue;
  /** Who makes the catalogue, to begin each warning (`mcpToolSet`, `Servers`). */
  readonly caller: string;
}

/**
 * The tools of `sources` a model may be offered, as one catalogue. A tool whose
 * MCP Apps visibility lacks `"model"` (`_meta.ui.visibility`, see
 * `isModelVisible`) is for its server's views only: it is left out first,
 * silently, as the extension requires, and takes no name. Names follow
 * `nameTools`: a tool keeps its MCP name unless another source lists the same one (then
 * every such tool is `<source>__<name>`); names that begin with `<source>__`
 * belong to that source; names are valid for every provider and unique; a tool
 * listed in `previous` keeps its name. A tool whose schema is past
 * `bounds.maxSchemaBytes` is left out before naming, so it takes no name from
 * the others; a description past `bounds.maxDescriptionChars` is cut.
 *
 * Source names are the caller's to check (`checkSourceNames`).
 */
export function toolCatalogue(sources: readonly CatalogueSource[], options: CatalogueOptions): ToolCatalogue {
  const { bounds, caller } = options;
  const warnings: string[] = [];
  const offered = sources.map(({ name, tools }) =>
    tools.filter((tool) => {
      if (!isModelVisible(tool)) return false;
      const bytes = schemaBytes(tool);
      if (bytes <= bounds.maxSchemaBytes) return true;
      warnings.push(
        `${caller}: left out tool ${quotedName(tool.name)} of ${name}: its input schema is ` +
          `${Number.isFinite(bytes) ? `${bytes} bytes` : 'too deep to write as JSON'}, past maxSchemaBytes (${bounds.maxSchemaBytes})`,
      );
      return false;
    }),
  );
  const named = nameTools({
    sources: sources.map(({ name }) => name),
    listings: offered,
    prefixAll: options.prefixAll ?? false,
    ...(options.previous && { previous: options.previous.names }),
    warn: (message) => warnings.push(message),
    caller,
  });
  const tools: CatalogueTool[] = [];
  const names = new Map<string, string>();
  for (const { source, tool, name, key } of named) {
    const server = sources[source]?.name;
    if (server === undefined) continue;
    let description = tool.description;
    if (description !== undefined && description.length > bounds.maxDescriptionChars) {
      description = cutDescription(description, bounds.maxDescriptionChars);
      warnings.push(
        `${caller}: the description of tool ${quotedName(tool.name)} of ${server} is cut to ` +
          `${bounds.maxDescriptionChars} characters (maxDescriptionChars)`,
      );
    }
    tools.push({ name, server, tool, key, ...(description !== undefined && { description }) });
    names.set(key, name);
  }
  return { tools, names, warnings };
}
