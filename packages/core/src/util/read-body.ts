import { LimitError } from '../errors/limit-error.js';

/**
 * Reads a whole body as text, failing as soon as it passes `limit` bytes.
 * Content-Length is no bound: it counts the bytes on the wire, and `fetch`
 * decodes a compressed body (Content-Encoding: gzip, br) into many times more
 * (8 KiB of gzip can hold 8 MiB). So the decoded bytes are counted as they
 * arrive, on every body, and reading stops at the limit with a LimitError
 * naming `limitName`, the setting a caller raises.
 */
export async function readBodyText(response: Response, limit: number, limitName = 'maxMessageBytes'): Promise<string> {
  if (!response.body) return '';
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
        // Not awaited: the limit error must not wait on the body's source. How
        // soon a cancel settles is up to the fetch in use (an injected one may
        // hand over a tee'd body, whose cancel settles only once the other branch
        // is cancelled too); the bytes stop flowing either way.
        reader.cancel().catch(() => {});
        throw new LimitError(limitName, limit, 'response body too large');
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
