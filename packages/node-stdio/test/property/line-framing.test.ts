import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Chunking, chunk, chunkingArb, framingText } from '../../../core/test/property/chunkings.js';
import { fcParams } from '../../../core/test/property/fc-params.js';
import { LineReader } from '../../src/line-reader.js';

/** What a reader delivered for one feed: its lines and whether it stopped. */
interface Read {
  readonly lines: string[];
  readonly stopped: boolean;
}

/** Feeds `chunks` through a real LineReader in `'stop'` mode, then ends the stream. */
function read(chunks: readonly Uint8Array[], maxLineBytes: number): Read {
  const lines: string[] = [];
  const reader = new LineReader({ maxLineBytes, overflow: 'stop', onLine: (line) => lines.push(line) });
  for (const piece of chunks) reader.push(piece);
  reader.end();
  return { lines, stopped: reader.stopped };
}

/**
 * The framing rule written out independently of the reader (2025-11-25,
 * Transports, stdio: one message per line): split on LF, drop one trailing CR,
 * skip blank lines, deliver a last unterminated line at the end, and stop for
 * good at the first line longer than the limit (counted in bytes, CR included).
 */
function expected(bytes: Uint8Array, maxLineBytes: number): Read {
  const lines: string[] = [];
  let start = 0;
  while (start <= bytes.length) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline === -1 ? bytes.length : newline;
    if (end - start > maxLineBytes) return { lines, stopped: true };
    let stop = end;
    if (stop > start && bytes[stop - 1] === 0x0d) stop--;
    if (stop > start) lines.push(Buffer.from(bytes.subarray(start, stop)).toString('utf8'));
    if (newline === -1) break;
    start = newline + 1;
  }
  return { lines, stopped: false };
}

const bytesOf = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'utf8'));

describe('NDJSON framing (LineReader) under every chunking', () => {
  it('delivers the same lines however text is cut, and the lines the framing rule names', () => {
    fc.assert(
      fc.property(framingText(), chunkingArb, (text: string, chunking: Chunking) => {
        const bytes = bytesOf(text);
        const whole = read([bytes], Number.MAX_SAFE_INTEGER);
        expect(read(chunk(bytes, chunking), Number.MAX_SAFE_INTEGER)).toEqual(whole);
        expect(whole).toEqual(expected(bytes, Number.MAX_SAFE_INTEGER));
      }),
      fcParams(400),
    );
  });

  it('delivers the same lines for arbitrary bytes (invalid UTF-8 included) however they are cut', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), chunkingArb, (bytes, chunking) => {
        const whole = read([bytes], Number.MAX_SAFE_INTEGER);
        expect(read(chunk(bytes, chunking), Number.MAX_SAFE_INTEGER)).toEqual(whole);
        expect(whole).toEqual(expected(bytes, Number.MAX_SAFE_INTEGER));
      }),
      fcParams(400),
    );
  });

  it('stops at the same line past maxLineBytes however the bytes are cut, and never delivers what follows', () => {
    fc.assert(
      fc.property(
        framingText(['x'.repeat(12)]),
        chunkingArb,
        fc.integer({ min: 0, max: 24 }),
        (text, chunking, max) => {
          const bytes = bytesOf(text);
          const whole = read([bytes], max);
          expect(read(chunk(bytes, chunking), max)).toEqual(whole);
          expect(whole).toEqual(expected(bytes, max));
        },
      ),
      fcParams(400),
    );
  });

  it('delivers compact JSON messages unchanged however their lines are cut', () => {
    const messages = fc.array(fc.jsonValue(), { maxLength: 8 });
    fc.assert(
      fc.property(messages, fc.constantFrom('\n', '\r\n'), chunkingArb, (values, ending, chunking) => {
        const text = values.map((value) => `${JSON.stringify(value)}${ending}`).join('');
        const { lines } = read(chunk(bytesOf(text), chunking), Number.MAX_SAFE_INTEGER);
        expect(lines.map((line) => JSON.parse(line))).toEqual(values.map((value) => JSON.parse(JSON.stringify(value))));
      }),
      fcParams(300),
    );
  });
});
