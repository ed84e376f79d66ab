import { LimitError, ProtocolError, TransportError } from '@mcp/core';
import { excerpt } from '@mcp/core/transport';

/** How the child process ended: an exit code, or the signal that killed it. */
export interface ExitStatus {
  /** The exit code; null when a signal ended it. */
  readonly code: number | null;
  /** The signal that ended it (`SIGTERM`, `SIGKILL`), or null. */
  readonly signal: NodeJS.Signals | null;
}

/** The excerpt of a bad line quoted in an error: enough to recognise it, never megabytes. */
const EXCERPT_CHARS = 120;

/** `node server.mjs --flag`: how errors name the server, so a user sees which one failed. */
export function commandLabel(command: string, args: readonly string[]): string {
  return [command, ...args].join(' ');
}

/** The child could not be started at all (ENOENT, EACCES, a bad cwd…). */
export function startError(label: string, cause: Error): TransportError {
  return new TransportError(`mcp server "${label}" could not start: ${cause.message}`, { cause });
}

/** The child went away without our asking. */
export function exitError(label: string, status: ExitStatus): TransportError {
  const how = status.signal ? `was killed by ${status.signal}` : `exited with code ${status.code}`;
  return new TransportError(`mcp server "${label}" ${how}`);
}

/**
 * A stdout line ran past `maxMessageBytes`. Framing is lost (the line may never
 * end), so the connection is over: this error fails the call waiting on it and
 * every call after.
 */
export function oversizedError(label: string, maxBytes: number): LimitError {
  return new LimitError(
    'maxMessageBytes',
    maxBytes,
    `mcp server "${label}" wrote a line longer than ${maxBytes} bytes, so the connection is closed`,
  );
}

/** A stdout line that is not JSON: reported, skipped, and the connection goes on. */
export function notJsonError(label: string, line: string, cause: unknown): ProtocolError {
  const shown = excerpt(line, EXCERPT_CHARS);
  // No `received`: the line may be megabytes, and the excerpt in the message identifies it.
  return new ProtocolError(
    `mcp server "${label}" wrote a line that is not JSON: ${JSON.stringify(shown)}`,
    {},
    { cause },
  );
}
