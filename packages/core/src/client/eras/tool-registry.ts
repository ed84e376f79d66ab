import type { Tool } from '../../protocol/tools.js';
import type { HeaderParam, headerAnnotations, paramHeaders } from '../x-mcp-header/index.js';

/** The `x-mcp-header` rules, as their on-demand module holds them. */
export interface HeaderRules {
  readonly headerAnnotations: typeof headerAnnotations;
  readonly paramHeaders: typeof paramHeaders;
}

/**
 * Whether any part of a tool's input schema may carry an `x-mcp-header`
 * annotation. A schema too deep to serialise may: the rules' bounded walk decides.
 */
function annotated(tool: Tool): boolean {
  try {
    return JSON.stringify(tool.inputSchema).includes('"x-mcp-header":');
  } catch {
    return true;
  }
}

/**
 * What the client knows of the server's tools for the 2026-07-28 headers: the
 * `x-mcp-header` parameters of each listed tool. A tool whose annotations break
 * the rules is left out of the list, with a warning naming it and why. The rules
 * load (`rules`) the first time a listed tool carries an annotation.
 */
export class ToolRegistry {
  readonly #params = new Map<string, readonly HeaderParam[]>();
  readonly #rules: () => Promise<HeaderRules>;
  #paramHeaders: HeaderRules['paramHeaders'] | undefined;

  constructor(rules: () => Promise<HeaderRules>) {
    this.#rules = rules;
  }

  /** Keeps the valid tools and remembers their header parameters; `maxNodes` bounds each schema's walk. */
  async accept(tools: readonly Tool[], maxNodes: number, warn: (message: string) => void): Promise<Tool[]> {
    this.#params.clear();
    if (!tools.some(annotated)) return [...tools];
    const { headerAnnotations, paramHeaders } = await this.#rules();
    this.#paramHeaders = paramHeaders;
    const valid: Tool[] = [];
    for (const tool of tools) {
      const annotations = headerAnnotations(tool, maxNodes);
      if (!annotations.ok) {
        warn(`tools/list: dropped tool ${JSON.stringify(tool.name)}: ${annotations.reason}`);
        continue;
      }
      if (annotations.params.length > 0) this.#params.set(tool.name, annotations.params);
      valid.push(tool);
    }
    return valid;
  }

  /** `Mcp-Param-*` headers of a call; none for a tool never listed (it is sent without them). */
  headers(name: string, args: Readonly<Record<string, unknown>>): Record<string, string> {
    const params = this.#params.get(name);
    return params && this.#paramHeaders ? this.#paramHeaders(params, args) : {};
  }
}
