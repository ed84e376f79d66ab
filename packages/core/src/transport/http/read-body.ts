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

/**
 * The start of a body, for error messages: reads only until it has `max`
 * characters (HttpError cuts further, marking the cut); never throws.
 */
export async function bodyExcerpt(response: Response, max = 4096): Promise<string> {
  if (!response.body) return '';
  const decoder = new TextDecoder();
  let text = '';
  try {
    for await (const chunk of iterate(response.body)) {
      text += decoder.decode(chunk, { stream: true });
      if (text.length > max) break;
    }
  } catch {
    // A body that breaks mid-way still gives what arrived.
  }
  return text.slice(0, max);
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
