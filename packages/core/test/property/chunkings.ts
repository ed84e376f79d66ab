import fc from 'fast-check';

/**
 * Ways to cut a byte sequence into chunks: anywhere (empty chunks included, so
 * cuts land inside multi-byte UTF-8 characters and between `\r` and `\n`), or
 * one byte per chunk, the harshest case for any state kept between chunks.
 */
export type Chunking = { readonly kind: 'cuts'; readonly cuts: readonly number[] } | { readonly kind: 'bytes' };

/** An arbitrary chunking; apply it to any length with {@link chunk}. */
export const chunkingArb: fc.Arbitrary<Chunking> = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.nat(), { maxLength: 40 }).map((cuts) => ({ kind: 'cuts' as const, cuts })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'bytes' as const }) },
);

/** Cuts `bytes` as `chunking` says: the chunks, concatenated, are `bytes` again. */
export function chunk(bytes: Uint8Array, chunking: Chunking): Uint8Array[] {
  if (chunking.kind === 'bytes') return Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
  const points = chunking.cuts.map((cut) => cut % (bytes.length + 1)).sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of points) {
    chunks.push(bytes.subarray(start, point));
    start = point;
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}

/** Text rich in what breaks framing: multi-byte characters (2, 3 and 4 bytes), `\r`, `\n`, separators. */
export function framingText(extra: readonly string[] = []): fc.Arbitrary<string> {
  const pieces = fc.constantFrom('\n', '\r', '\r\n', 'é', '€', '😀', '\u2028', ' ', ':', '{', '"', 'a', ...extra);
  return fc
    .array(fc.oneof(pieces, fc.string({ unit: 'binary', maxLength: 6 })), { maxLength: 60 })
    .map((parts) => parts.join(''));
}
