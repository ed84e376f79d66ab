import type { Tool } from '../protocol/tools.js';
import { type HeaderParam, headerAnnotations, paramHeaders } from './x-mcp-header.js';

/**
 * What the client knows of the server's tools for the 2026-07-28 headers: the
 * `x-mcp-header` parameters of each listed tool. A tool whose annotations break
 * the rules is left out of the list, with a warning naming it and why.
 */
export class ToolRegistry {
  readonly #params = new Map<string, readonly HeaderParam[]>();

  /** Keeps the valid tools and remembers their header parameters. */
  accept(tools: readonly Tool[], warn: (message: string) => void): Tool[] {
    this.#params.clear();
    const valid: Tool[] = [];
    for (const tool of tools) {
      const annotations = headerAnnotations(tool);
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
    return params ? paramHeaders(params, args) : {};
  }
}
