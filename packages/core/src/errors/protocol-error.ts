import { McpError } from './mcp-error.js';

/** One thing wrong with what the server sent: where (a dotted path, `''` for the whole value) and what. */
export interface ProtocolIssue {
  /** A dotted path into the value (`content.1.data`), `''` for the whole of it. */
  readonly path: string;
  /** What is wrong there. */
  readonly message: string;
}

/** What a `ProtocolError` knows besides its message; the same shape wherever it is thrown. */
export interface ProtocolErrorData {
  /** Why validation failed, one entry per problem; empty when the value was not even readable. */
  readonly issues: readonly ProtocolIssue[];
  /** The offending value as received (a message, a result), when the client has it. */
  readonly received?: unknown;
}

/**
 * The server sent something that breaks the protocol: invalid JSON, a message that
 * is not JSON-RPC, or a result of the wrong shape. `data.issues` lists what failed
 * validation; `cause` holds an underlying error (e.g. a `SyntaxError`) when there is one.
 */
export class ProtocolError extends McpError {
  override name = 'ProtocolError';
  /** The issues found and, when the client has it, the value received. */
  readonly data: ProtocolErrorData;

  /** `data`: the issues found and, when known, what was received. */
  constructor(message: string, data: Partial<ProtocolErrorData> = {}, options?: ErrorOptions) {
    super(message, options);
    this.data = { ...data, issues: data.issues ?? [] };
  }
}
