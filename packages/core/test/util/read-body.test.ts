import { describe, expect, it } from 'vitest';
import { LimitError } from '../../src/index.js';
import { readBodyText } from '../../src/util/read-body.js';

/** A response streamed in the given byte chunks, with no Content-Length (as a chunked HTTP body arrives). */
function streamed(chunks: readonly Uint8Array[]): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'application/json' } });
}

describe('reading a whole body as text', () => {
  it('decodes a body without Content-Length as it arrives, a character split across chunks included', async () => {
    const text = JSON.stringify({ text: 'héllo — 日本語 🙂'.repeat(200) });
    const bytes = new TextEncoder().encode(text);
    // Cut every 7 bytes: most multi-byte characters land across two chunks.
    const chunks = Array.from({ length: Math.ceil(bytes.length / 7) }, (_, i) => bytes.subarray(i * 7, i * 7 + 7));
    expect(await readBodyText(streamed(chunks), 1_000_000)).toBe(text);
  });

  it('fails as soon as the body passes the limit with a LimitError naming maxMessageBytes', async () => {
    const chunk = new Uint8Array(1000).fill(0x61);
    const error = await readBodyText(streamed([chunk, chunk, chunk]), 2500).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ limit: 'maxMessageBytes', value: 2500 });
    expect((error as Error).message).toContain('maxMessageBytes');
  });

  it('counts the bytes it reads, not the Content-Length (a compressed body decodes to more)', async () => {
    const chunk = new Uint8Array(1000).fill(0x61);
    const response = streamed([chunk, chunk, chunk]);
    response.headers.set('content-length', '100');
    const error = await readBodyText(response, 2500).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LimitError);
  });
});
