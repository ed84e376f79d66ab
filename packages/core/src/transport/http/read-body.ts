import { ProtocolError } from '../../errors/protocol-error.js';
import { iterate } from './sse-events.js';

/** Reads a whole body as text, failing as soon as it passes `limit` bytes. */
export async function readBodyText(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of iterate(response.body)) {
    size += chunk.byteLength;
    if (size > limit) throw new ProtocolError(`response body larger than the ${limit}-byte limit (maxMessageBytes)`);
    chunks.push(chunk);
  }
  const bytes = chunks.length === 1 ? (chunks[0] as Uint8Array) : concat(chunks, size);
  return new TextDecoder().decode(bytes);
}

/** The first `max` characters of a body, for error messages; never throws. */
export async function bodyExcerpt(response: Response, max = 512): Promise<string> {
  try {
    const text = await readBodyText(response, 64 * 1024);
    return text.slice(0, max);
  } catch {
    return '';
  }
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
