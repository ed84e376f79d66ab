import { Buffer } from 'node:buffer';
import { assertPrintable } from './print-depth.js';
import { terminalJson } from './terminal-text.js';

/** Where the CLI writes: `process.stdout` in the bin, a capturing object in tests. */
export interface OutputStream {
  write(chunk: string): unknown;
  readonly isTTY?: boolean;
  /** Terminal width; long descriptions are cut to it when present. */
  readonly columns?: number;
}

/** Text decorations; each is the identity when color is off. */
export interface Style {
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly accent: (text: string) => string;
}

const sgr = (open: number, close: number) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`;
const plain = (text: string) => text;

/**
 * Color only for a person at a terminal: stdout is a TTY and NO_COLOR is unset
 * (https://no-color.org: any non-empty value disables it).
 */
export function styleFor(stream: OutputStream, env: Readonly<Record<string, string | undefined>>): Style {
  const color = stream.isTTY === true && !env.NO_COLOR;
  if (!color) return { bold: plain, dim: plain, accent: plain };
  return { bold: sgr(1, 22), dim: sgr(2, 22), accent: sgr(36, 39) };
}

/** One table cell: its text, and how to paint it once padded (padding is measured on plain text). */
export type Cell = string | readonly [text: string, paint: (text: string) => string];

/** Columns wider than this do not stretch the table; the odd long cell just pushes its row. */
const MAX_COLUMN = 36;
const GAP = '  ';
/** Narrower than this, wrapping helps less than it hurts: the terminal wraps instead. */
const MIN_WRAP = 24;

/**
 * Lays rows out in aligned columns, indented by two spaces. The last cell of a row
 * is not padded; given a terminal `width`, it wraps under its own column.
 */
export function columns(rows: readonly (readonly Cell[])[], width?: number): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.slice(0, -1).forEach((cell, i) => {
      widths[i] = Math.min(MAX_COLUMN, Math.max(widths[i] ?? 0, textOf(cell).length));
    });
  }
  return rows.flatMap((row) => {
    let line = GAP;
    let used = GAP.length; // visible width so far; `line` also holds color codes
    for (const [i, cell] of row.slice(0, -1).entries()) {
      const text = textOf(cell);
      const padding = Math.max(0, (widths[i] ?? 0) - text.length);
      line += paintOf(cell)(text) + ' '.repeat(padding) + GAP;
      used += text.length + padding + GAP.length;
    }
    const last = row.at(-1) ?? '';
    const [first = '', ...rest] = wrap(textOf(last), width === undefined ? Infinity : width - used);
    const paint = paintOf(last);
    return [(line + paint(first)).trimEnd(), ...rest.map((more) => ' '.repeat(used) + paint(more))];
  });
}

/**
 * Words of `text` in lines of at most `max` characters (a longer word gets a line
 * of its own). A `name: type = default` pair is one word, so signatures break between parameters.
 */
export function wrap(text: string, max: number): string[] {
  if (text.length <= max || max < MIN_WRAP) return [text];
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/(?<![:=→]) (?!=)/)) {
    if (current !== '' && current.length + 1 + word.length > max) {
      lines.push(current);
      current = word;
    } else {
      current = current === '' ? word : `${current} ${word}`;
    }
  }
  lines.push(current);
  return lines;
}

const paintOf = (cell: Cell) => (typeof cell === 'string' ? plain : cell[1]);

function textOf(cell: Cell): string {
  return typeof cell === 'string' ? cell : cell[0];
}

/** One line of prose from a description that may span paragraphs. */
export function oneLine(text: string | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

/** A section header with an optional count: `Tools (11)`. */
export function heading(style: Style, title: string, count?: number): string {
  return style.bold(count === undefined ? title : `${title} (${count})`);
}

/** `1 byte`, `68 bytes`. */
export function bytes(count: number): string {
  return `${count} ${count === 1 ? 'byte' : 'bytes'}`;
}

/** The decoded length of a base64 string, without decoding it. */
export function base64Size(data: string): number {
  return Buffer.byteLength(data, 'base64');
}

/** The first bytes as hex pairs, so binary content can be recognised at a glance. */
export function hexPreview(data: Uint8Array, max = 32): string {
  const shown = Array.from(data.subarray(0, max), (byte) => byte.toString(16).padStart(2, '0')).join(' ');
  return data.length > max ? `${shown} …` : shown;
}

/**
 * Pretty JSON for `--json` and structured content. Decoded bytes go back to
 * base64, as they were on the wire; control characters are `\u` escapes.
 * Data nested past MAX_PRINT_DEPTH is refused with a LimitError before
 * `JSON.stringify`, whose recursion it would overflow.
 */
export function toJson(value: unknown): string {
  assertPrintable(value);
  return terminalJson(
    JSON.stringify(
      value,
      (_key, item: unknown) => (item instanceof Uint8Array ? Buffer.from(item).toString('base64') : item),
      2,
    ),
  );
}
