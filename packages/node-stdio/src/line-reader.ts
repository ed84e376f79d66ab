/**
 * What a `LineReader` does with a line longer than its limit: `'stop'` drops it
 * and refuses all further input (a stdout that breaks framing is fatal), `'split'`
 * hands over what is buffered as a line and goes on (fine for log text on stderr),
 * `'skip'` drops that one line up to its newline, calls `onOverflow`, and goes on
 * with the next (a peer's one bad message need not end the connection).
 */
export type LineOverflow = 'stop' | 'split' | 'skip';

/** Options for `LineReader`. */
export interface LineReaderOptions {
  /** Called once per complete, non-empty line, without its `\n` or `\r\n`. */
  readonly onLine: (line: string) => void;
  /** Bytes a line may hold before its newline; past it the reader stops buffering. */
  readonly maxLineBytes: number;
  readonly overflow: LineOverflow;
  /** `'skip'` mode: called once for each line dropped for passing `maxLineBytes`. */
  readonly onOverflow?: () => void;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Splits a byte stream into UTF-8 lines (MCP stdio framing: 2025-11-25, Transports,
 * stdio). Chunks are kept as they arrive and only new bytes are scanned for `\n`,
 * so a line spread over many chunks costs one copy and one decode, never a
 * re-scan of what came before. Splitting on the byte 0x0A is safe because it
 * never occurs inside a multi-byte UTF-8 sequence.
 */
export class LineReader {
  readonly #options: LineReaderOptions;
  /** Pieces of the line under construction: views into received chunks, not copies. */
  #parts: Uint8Array[] = [];
  #pending = 0;
  #stopped = false;
  /** `'skip'` mode: inside a line past the limit, discarding up to its newline. */
  #skipping = false;

  constructor(options: LineReaderOptions) {
    this.#options = options;
  }

  /** True once a line passed the limit in `'stop'` mode; every later `push` is ignored. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** Feeds one chunk. Returns false when the limit was exceeded in `'stop'` mode. */
  push(chunk: Uint8Array): boolean {
    if (this.#stopped) return false;
    const { maxLineBytes } = this.#options;
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(LF, start);
      if (this.#skipping) {
        if (newline === -1) return true;
        this.#skipping = false;
        start = newline + 1;
        continue;
      }
      const end = newline === -1 ? chunk.length : newline;
      // Check before keeping anything, so an endless line never grows the buffer past the limit.
      if (this.#pending + (end - start) > maxLineBytes) {
        if (this.#options.overflow === 'stop') return this.#stop();
        if (this.#options.overflow === 'skip') {
          this.#parts = [];
          this.#pending = 0;
          this.#skipping = true;
          this.#options.onOverflow?.();
          continue;
        }
        this.#parts.push(chunk.subarray(start, end));
        this.#pending += end - start;
        this.#flush();
        if (newline === -1) return true;
        start = newline + 1;
        continue;
      }
      if (newline === -1) {
        if (end > start) {
          this.#parts.push(chunk.subarray(start));
          this.#pending += end - start;
        }
        return true;
      }
      if (this.#pending === 0) this.#emit(chunk, start, end);
      else {
        this.#parts.push(chunk.subarray(start, end));
        this.#pending += end - start;
        this.#flush();
      }
      start = newline + 1;
    }
  }

  /** The stream ended: a last line without a trailing newline is still delivered. */
  end(): void {
    if (!this.#stopped && this.#pending > 0) this.#flush();
    this.#parts = [];
    this.#pending = 0;
    this.#skipping = false;
  }

  #stop(): false {
    this.#stopped = true;
    this.#parts = [];
    this.#pending = 0;
    return false;
  }

  #flush(): void {
    const parts = this.#parts;
    const bytes = parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts, this.#pending);
    this.#parts = [];
    this.#pending = 0;
    this.#emit(bytes, 0, bytes.length);
  }

  /** Decodes `bytes[start, end)` once, without a trailing `\r`; blank lines are skipped. */
  #emit(bytes: Uint8Array, start: number, end: number): void {
    if (end > start && bytes[end - 1] === CR) end--;
    if (end === start) return;
    const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.#options.onLine(buffer.toString('utf8', start, end));
  }
}
