import { describe, expect, it } from 'vitest';
import { LineReader } from '../../src/line-reader.js';

/** Feeds `input` to a `'skip'` reader in the given chunks; returns the lines and the overflow count. */
function read(chunks: readonly string[], maxLineBytes: number) {
  const lines: string[] = [];
  let overflows = 0;
  const reader = new LineReader({
    maxLineBytes,
    overflow: 'skip',
    onLine: (line) => lines.push(line),
    onOverflow: () => overflows++,
  });
  for (const chunk of chunks) expect(reader.push(Buffer.from(chunk))).toBe(true);
  reader.end();
  return { lines, overflows, stopped: reader.stopped };
}

describe("LineReader, 'skip' mode (mcp bridge's stdin)", () => {
  const input = `first\n${'x'.repeat(40)}\nsecond\n${'y'.repeat(25)}\r\nthird\n${'z'.repeat(30)}`;

  it('drops each line past the limit up to its newline, reports it once, and keeps every other line', () => {
    expect(read([input], 20)).toEqual({ lines: ['first', 'second', 'third'], overflows: 3, stopped: false });
  });

  it('gives the same lines wherever the chunks break, one byte at a time included', () => {
    for (let cut = 1; cut < input.length; cut++) {
      expect(read([input.slice(0, cut), input.slice(cut)], 20).lines).toEqual(['first', 'second', 'third']);
    }
    expect(read([...input], 20)).toEqual({ lines: ['first', 'second', 'third'], overflows: 3, stopped: false });
  });

  it('keeps a line of exactly the limit', () => {
    expect(read([`${'a'.repeat(20)}\n${'b'.repeat(21)}\nc`], 20).lines).toEqual(['a'.repeat(20), 'c']);
  });
});
