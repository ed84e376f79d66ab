import { ProtocolError } from '../../errors/protocol-error.js';

/** Reads a whole body as text, failing as soon as it passes `limit` bytes. */
export async function readBodyText(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const length = Number(response.headers.get('content-length') ?? Number.NaN);
  // A declared length within the limit: let the runtime read it in one go.
  if (Number.isInteger(length) && length <= limit) return response.text();
  const reader = response.body.getReader();
  // Decoded as it arrives, so each chunk's bytes are free once read: the peak
  // is the text, not the bytes plus a joined copy plus the text.
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let size = 0;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        throw new ProtocolError(`response body larger than the ${limit}-byte limit (maxMessageBytes)`);
      }
      parts.push(decoder.decode(value, { stream: true }));
    }
  } finally {
    reader.releaseLock();
  }
  parts.push(decoder.decode());
  return parts.join('');
}

/** Drops a body nobody will read, so its connection is freed; never throws. */
export async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}

/** The response's media type, lower-cased ('' when absent). */
export function contentType(response: Response): string {
  return (response.headers.get('content-type') ?? '').toLowerCase();
}
