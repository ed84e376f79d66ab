import { ProtocolError } from '../../errors/protocol-error.js';

/** Reads a whole body as text, failing as soon as it passes `limit` bytes. */
export async function readBodyText(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const length = Number(response.headers.get('content-length') ?? Number.NaN);
  // A declared length within the limit: let the runtime read it in one go.
  if (Number.isInteger(length) && length <= limit) return response.text();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        throw tooLarge(limit);
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  const bytes = chunks.length === 1 ? (chunks[0] as Uint8Array) : concat(chunks, size);
  return new TextDecoder().decode(bytes);
}

const tooLarge = (limit: number) =>
  new ProtocolError(`response body larger than the ${limit}-byte limit (maxMessageBytes)`);

/**
 * The start of a body, for error messages: reads only until it has `max`
 * characters (HttpError cuts further, marking the cut); never throws.
 */
export async function bodyExcerpt(response: Response, max = 4096): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length <= max) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    await reader.cancel().catch(() => {});
  } catch {
    // A body that breaks mid-way still gives what arrived.
  } finally {
    reader.releaseLock();
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
