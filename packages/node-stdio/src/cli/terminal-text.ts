/**
 * Server text on our terminal. A terminal acts on control characters instead of
 * showing them: ESC starts sequences that set the window title, clear the
 * screen, recolor or hide text, move the cursor or (on some terminals) write
 * files; a bare CR lets later text overwrite earlier text; C1 codes such as
 * U+009B (CSI) do what ESC sequences do on terminals that honor them. None of
 * that is the server's to do, so it is stripped from everything `mcp` prints
 * that a server sent: C0 controls but tab and newline, DEL and C1. Without its
 * ESC, what remains of a sequence prints as harmless visible text. Line breaks
 * stay, so multi-line text (instructions, a resource) keeps its lines; a CRLF
 * loses its CR. The Unicode bidi overrides, embeddings and isolates
 * (U+202A–U+202E, U+2066–U+2069) go too: they make text display in an order
 * other than the one it has, so a name or URI could read as another.
 */
import { ELIDED, MAX_PRINT_DEPTH } from './print-depth.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `text` without the control characters a terminal would act on. */
export function terminalText(text: string): string {
  return text.replace(CONTROL, '');
}

/**
 * A copy of a server's data (a result, an inspection) ready to lay out for the
 * terminal: every string in it, object keys included, through `terminalText`,
 * and any array or object more than MAX_PRINT_DEPTH levels down replaced by
 * ELIDED (print-depth.ts), so neither this walk nor the layout after it can
 * overflow the stack. Bytes, numbers and other non-plain values are kept as they are.
 */
export function terminalSafe<T>(value: T): T {
  return clean(value, 1) as T;
}

function clean(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return terminalText(value);
  if (typeof value !== 'object' || value === null) return value;
  if (!Array.isArray(value)) {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return value;
  }
  if (depth > MAX_PRINT_DEPTH) return ELIDED;
  if (Array.isArray(value)) return value.map((item) => clean(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [terminalText(key), clean(item, depth + 1)]));
}

/** DEL, C1 and the bidi controls in JSON text: `JSON.stringify` leaves them raw, as JSON allows; written as `\u` escapes they stay exact. */
const RAW_IN_JSON = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON for `--json`, safe on a terminal and still the same data: `JSON.stringify`
 * already escapes C0 inside strings, and these are the rest of `CONTROL`.
 */
export function terminalJson(json: string): string {
  return json.replace(RAW_IN_JSON, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
