import type { ToolResult } from '../protocol/tools.js';
import { McpError } from './mcp-error.js';

/** A tool ran and reported failure (`isError: true`); `result` holds what it returned. */
export class ToolError extends McpError {
  override name = 'ToolError';
  /** The tool that reported failure. */
  readonly tool: string;
  /** What it returned, `isError: true` and all. */
  readonly result: ToolResult;

  /** `tool` answered `result` with `isError: true`. */
  constructor(tool: string, result: ToolResult) {
    super(`tool ${tool} failed${result.text ? `: ${result.text}` : ''}`);
    this.tool = tool;
    this.result = result;
  }
}
