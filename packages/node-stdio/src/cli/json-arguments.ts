/**
 * The `'<json args>'` operand of `mcp call`, `mcp prompt` and `mcp complete`:
 * a JSON object written on the command line, or read from a file (`@path`) or
 * from stdin (`@-`), as curl reads `-d @file`. A JSON object never starts with
 * `@`, so the two cannot be confused.
 */
import { open } from 'node:fs/promises';
import { addAbortSignal, type Readable } from 'node:stream';
import type { InputStream } from './interactive/index.js';
import { UsageError } from './usage-error.js';

/**
 * Most bytes read for one `@path` or `@-` operand (4 MiB): arguments are kept
 * in memory and sent in one message, and a file named by mistake (a disk
 * image, `/dev/zero`) must not be read whole. Past it, a usage error.
 */
export const MAX_ARGUMENT_BYTES = 4 * 1024 * 1024;

/** Where a JSON operand comes from: already parsed, or still to read. */
export type JsonArguments =
  | { readonly from: 'inline'; readonly value: Record<string, unknown> }
  | { readonly from: 'file'; readonly path: string }
  | { readonly from: 'stdin' };

/** What `@-` and `@path` need at run time. */
export interface ArgumentIo {
  readonly stdin: InputStream;
  /** Ctrl+C: a read still waiting (stdin from a terminal, a FIFO) stops. */
  readonly signal?: AbortSignal | undefined;
}

/** Reads the operand: `@-` and `@path` are kept for {@link readArguments}, anything else must be a JSON object now. */
export function jsonArguments(operand: string | undefined): JsonArguments {
  if (operand === '@-') return { from: 'stdin' };
  if (operand?.startsWith('@')) {
    const path = operand.slice(1);
    if (path === '') throw new UsageError('"@" takes a file name, or "-" for stdin');
    return { from: 'file', path };
  }
  return { from: 'inline', value: jsonObject(operand, 'arguments') };
}

/** The object the operand holds, reading its file or stdin (at most MAX_ARGUMENT_BYTES). */
export async function readArguments(source: JsonArguments, io: ArgumentIo): Promise<Record<string, unknown>> {
  if (source.from === 'inline') return source.value;
  const where = source.from === 'stdin' ? 'stdin (@-)' : `@${source.path}`;
  const text =
    source.from === 'stdin'
      ? await readStream(io.stdin, where, io.signal)
      : await readFile(source.path, where, io.signal);
  return jsonObject(text, `arguments from ${where}`);
}

/** Prompt and completion arguments are strings on the wire (every revision, §Prompts, §Completion); anything else is refused. */
export function stringValues(object: Record<string, unknown>, what: string): Record<string, string> {
  for (const [key, value] of Object.entries(object)) {
    if (typeof value !== 'string') {
      throw new UsageError(`${what} must be strings; "${key}" is ${value === null ? 'null' : typeof value}`);
    }
  }
  return object as Record<string, string>;
}

/** A JSON object, `{}` when there is no text. */
function jsonObject(text: string | undefined, what: string): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // JSON.parse throws only SyntaxError; the file system only Errors with a code.
    throw new UsageError(`${what} are not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`${what} must be a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}`);
  }
  return value as Record<string, unknown>;
}

async function readFile(path: string, where: string, signal: AbortSignal | undefined): Promise<string> {
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, 'r');
  } catch (error) {
    throw new UsageError(`cannot read ${where}: ${(error as Error).message}`, { cause: error });
  }
  try {
    return await readStream(file.createReadStream({ autoClose: false }), where, signal);
  } finally {
    await file.close();
  }
}

/** The stream's text; past MAX_ARGUMENT_BYTES it stops reading and refuses. */
async function readStream(
  stream: NodeJS.ReadableStream,
  where: string,
  signal: AbortSignal | undefined,
): Promise<string> {
  // Every stream here is a node:stream Readable (process.stdin, a file's, a test's).
  if (signal) addAbortSignal(signal, stream as Readable);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += bytes.length;
      if (size > MAX_ARGUMENT_BYTES) {
        throw new UsageError(`${where} holds more than ${MAX_ARGUMENT_BYTES} bytes of arguments`);
      }
      chunks.push(bytes);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${where}: ${(error as Error).message}`, { cause: error });
  }
  return Buffer.concat(chunks).toString('utf8');
}
