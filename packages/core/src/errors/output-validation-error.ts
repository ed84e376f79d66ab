import type { ToolResult } from '../protocol/tools.js';
import { ProtocolError, type ProtocolErrorData } from './protocol-error.js';

/**
 * A tool's result broke the `outputSchema` it listed (2025-06-18 on, server/tools
 * § Output Schema): its `structuredContent` does not validate, or is missing from
 * a result that is not `isError`. The server MUST return conforming results, so
 * this is the server breaking the protocol, a `ProtocolError`: `data.issues` lists
 * what failed (dotted paths, `''` for the whole value) and `data.received` holds
 * the `structuredContent` as it came, so the app can still show it. An error the
 * validator itself raised (say, a value nested too deep for it, a `LimitError`
 * past `limits.maxValidationSteps`) is the `cause`; so is the failure to load
 * the validator at all (a chunk download failing), the result then unchecked.
 * The tool has run either way: `result` holds what it returned, so the app
 * decides what to do with it (the call of a tool that is not idempotent is not
 * lost).
 */
export class OutputValidationError extends ProtocolError {
  override name = 'OutputValidationError';
  /** The tool whose result failed. */
  readonly tool: string;
  /** Where the first failure is: a dotted path into `structuredContent`, `''` for the whole value. */
  readonly path: string;
  /** The tool's result as it came, not checked or not passing. */
  readonly result: ToolResult | undefined;

  /** `tool`'s result failed its output schema at `path`; `options.result` is that result. */
  constructor(
    tool: string,
    path: string,
    message: string,
    data: Partial<ProtocolErrorData>,
    options?: ErrorOptions & { readonly result?: ToolResult },
  ) {
    super(message, data, options);
    this.tool = tool;
    this.path = path;
    this.result = options?.result;
  }
}
