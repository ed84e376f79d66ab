/**
 * `mcp read <uri> --out <file>`: one resource body written to a file the user
 * named, the bytes of a blob decoded, a text as UTF-8. The file name is only
 * ever the user's: the resource's URI and name are never used to pick one, so
 * a server cannot choose where anything lands. An existing file is kept unless
 * `--force`; without it the file is created exclusively (O_EXCL), which also
 * refuses a symbolic link planted where the file would go.
 */
import { writeFile } from 'node:fs/promises';
import type { ReadResourceResult } from '@mcp/core';
import { bytes } from './format.js';

/** What was written, for the line `mcp` prints and for `--json`. */
export interface SavedBody {
  readonly uri: string;
  readonly mimeType?: string;
  readonly file: string;
  readonly bytes: number;
}

/** Why `--out` wrote nothing: a message for the error line. */
export class SaveError extends Error {
  override name = 'SaveError';
}

/** Writes the one body of `result` to `file`; more than one body, or none, is refused. */
export async function saveBody(result: ReadResourceResult, file: string, force: boolean): Promise<SavedBody> {
  const [body, ...more] = result.contents;
  if (body === undefined || more.length > 0) {
    throw new SaveError(`--out writes one body; the resource has ${result.contents.length}`);
  }
  const data = body.blob ?? Buffer.from(body.text ?? '', 'utf8');
  try {
    await writeFile(file, data, { flag: force ? 'w' : 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new SaveError(`${file} exists; add --force to replace it`, { cause: error });
    throw new SaveError(`cannot write ${file}: ${(error as Error).message}`, { cause: error });
  }
  return { uri: body.uri, ...(body.mimeType !== undefined && { mimeType: body.mimeType }), file, bytes: data.length };
}

/** `wrote 8 bytes of test://static/binary/1 to out.bin`. */
export function savedLine(saved: SavedBody): string {
  return `wrote ${bytes(saved.bytes)} of ${saved.uri} to ${saved.file}`;
}
