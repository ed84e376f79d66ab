import { ClientClosedError, McpError, RpcError, TransportError } from '@mcp/core';
import { SaveError } from './save-body.js';
import { SessionError } from './session.js';
import { UsageError } from './usage-error.js';

/** Exit statuses: 1 the command failed, 2 the command line was wrong, 130 interrupted (128 + SIGINT). */
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERRUPTED = 130;

/** What the user sees when a command fails: one line for stderr and the exit status. */
export interface Failure {
  readonly line: string;
  readonly exitCode: number;
}

/** Turns any error into one line naming what failed, never a stack trace. */
export function describeFailure(error: unknown, interrupted: boolean): Failure {
  if (interrupted) return { line: 'mcp: interrupted', exitCode: EXIT_INTERRUPTED };
  if (error instanceof UsageError) return { line: `mcp: ${error.message} (try mcp --help)`, exitCode: EXIT_USAGE };
  if (error instanceof SessionError) {
    const cause = error.cause;
    if (error.notStarted && cause instanceof TransportError) {
      return { line: `mcp: could not start "${error.label}": ${startProblem(cause)}`, exitCode: EXIT_FAILURE };
    }
    return { line: `mcp: ${lineMessage(cause)}`, exitCode: EXIT_FAILURE };
  }
  return { line: `mcp: ${lineMessage(error)}`, exitCode: EXIT_FAILURE };
}

/** The message, without a repeated `mcp:` prefix; an unexpected error keeps its class name. */
function lineMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { name } = error;
  const message = oneLine(error.message.replace(/^mcp:\s*/, '').replace(/^mcp server /, 'server '));
  if (error instanceof ClientClosedError && error.cause instanceof Error) return lineMessage(error.cause);
  if (error instanceof RpcError) return rpcLine(error);
  if (error instanceof SaveError) return message;
  if (error instanceof McpError || name === 'TimeoutError' || name === 'AbortError') return message;
  return `${name}: ${message}`;
}

/**
 * `tools/call: Unknown tool: x (-32602)`, the code said once: many servers
 * (the official SDKs among them) already begin their message with
 * `MCP error -32602:`, which is dropped, and a message that names the code
 * elsewhere gets no second one.
 */
function rpcLine(error: RpcError): string {
  const code = String(error.code);
  // A code is a number, but one like 1e+21 prints with regex characters.
  const pattern = code.replace(/[.+]/g, '\\$&');
  const message = oneLine(error.rpcMessage.replace(new RegExp(`^\\s*MCP error ${pattern}:\\s*`), ''));
  const named = new RegExp(`(^|[^\\d])${pattern}($|[^\\d])`).test(message);
  const line = named ? message : `${message} (${code})`;
  return error.method === undefined ? line : `${error.method}: ${line}`;
}

/** Why spawning failed, in words: the errno codes people meet most, the system message otherwise. */
function startProblem(error: TransportError): string {
  const cause = error.cause;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : '';
  if (code === 'ENOENT') return 'no such command (ENOENT)';
  if (code === 'EACCES') return 'permission denied (EACCES)';
  return cause instanceof Error ? cause.message : error.message;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
