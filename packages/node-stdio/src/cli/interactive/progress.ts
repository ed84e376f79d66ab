/**
 * The server's progress on stderr while `mcp call` waits. On a terminal, one
 * line redrawn in place (a bar when the total is known, a turning mark and the
 * count when not) and erased before anything else is written; elsewhere (a
 * pipe, a file, CI logs) one plain line per notification:
 * `progress 3/10 step 3 of 10`. The server's message is untrusted: control
 * characters are stripped, whitespace runs become one space, and on a terminal
 * it is cut to the width left on the line.
 */
import type { Progress } from '@mcp/core';
import { timerDelay } from '@mcp/core/transport';
import type { OutputStream } from '../format.js';
import { terminalText } from '../terminal-text.js';

/** A terminal line is redrawn at most this often (ms); the latest progress is drawn when the interval ends. */
export const REDRAW_INTERVAL_MS = 100;
/** The width assumed when the terminal does not say. */
const DEFAULT_COLUMNS = 80;
/** Cells of the bar between its brackets. */
const BAR_CELLS = 20;
const SPINNER = ['|', '/', '-', '\\'];
/** Carriage return, then erase the whole line (CSI 2 K). */
const ERASE_LINE = '\r\x1b[2K';

/** Reports progress; `clear` erases what is on screen and stops any redraw still due. */
export interface ProgressReporter {
  readonly update: (progress: Progress) => void;
  readonly clear: () => void;
  /** Erases the line and draws nothing until `resume` (while a prompt owns the terminal). */
  readonly suspend: () => void;
  readonly resume: () => void;
  /** Erases the line before `write`, and draws it again after: for every other write to stderr. */
  readonly around: (write: () => void) => void;
}

/** What the reporter needs besides the stream: a clock and timers, replaceable in tests. */
export interface ReporterClock {
  readonly now: () => number;
  readonly setTimeout: (callback: () => void, ms: number) => unknown;
  readonly clearTimeout: (timer: unknown) => void;
}

const systemClock: ReporterClock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/** A terminal line when `stderr` is a TTY, plain lines otherwise. */
export function progressReporter(stderr: OutputStream, clock: ReporterClock = systemClock): ProgressReporter {
  return stderr.isTTY === true ? terminalReporter(stderr, clock) : plainReporter(stderr);
}

function plainReporter(stderr: OutputStream): ProgressReporter {
  return {
    update: (progress) => stderr.write(`${plainLine(progress)}\n`),
    clear: () => {},
    suspend: () => {},
    resume: () => {},
    around: (write) => write(),
  };
}

/** `progress 3/10 message` (or `progress 3 message` without a total): what a pipe gets per notification. */
export function plainLine(progress: Progress): string {
  const message = progressMessage(progress.message);
  return `progress ${count(progress)}${message === '' ? '' : ` ${message}`}`;
}

function terminalReporter(stderr: OutputStream, clock: ReporterClock): ProgressReporter {
  let latest: Progress | undefined;
  let shown = false;
  let suspended = false;
  let lastDraw = Number.NEGATIVE_INFINITY;
  let timer: unknown;
  let frame = 0;

  const erase = () => {
    if (shown) stderr.write(ERASE_LINE);
    shown = false;
  };
  const draw = () => {
    timer = undefined;
    if (latest === undefined || suspended) return;
    lastDraw = clock.now();
    const line = barLine(latest, stderr.columns ?? DEFAULT_COLUMNS, SPINNER[frame++ % SPINNER.length] ?? '');
    stderr.write(`${ERASE_LINE}${line}`);
    shown = true;
  };
  const cancelTimer = () => {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
  };
  return {
    update(progress) {
      latest = progress;
      if (suspended || timer !== undefined) return;
      const wait = lastDraw + REDRAW_INTERVAL_MS - clock.now();
      if (wait <= 0) draw();
      else timer = clock.setTimeout(draw, timerDelay(wait));
    },
    clear() {
      cancelTimer();
      latest = undefined;
      erase();
    },
    suspend() {
      cancelTimer();
      suspended = true;
      erase();
    },
    resume() {
      suspended = false;
      draw();
    },
    around(write) {
      const redraw = shown;
      erase();
      write();
      if (redraw) draw();
    },
  };
}

/**
 * The terminal line: `[######--------------] 3/10 message` with a total,
 * `| 3 message` without; never wider than `columns - 1` (the last column
 * would make some terminals wrap, and a wrapped line cannot be erased with CR).
 */
export function barLine(progress: Progress, columns: number, spin: string): string {
  const { total } = progress;
  let head: string;
  if (total !== undefined && total > 0) {
    const ratio = Math.min(1, Math.max(0, progress.progress / total));
    const filled = Math.round(ratio * BAR_CELLS);
    head = `[${'#'.repeat(filled)}${'-'.repeat(BAR_CELLS - filled)}] ${count(progress)}`;
  } else {
    head = `${spin} ${count(progress)}`;
  }
  const room = Math.max(0, columns - 1);
  const message = progressMessage(progress.message);
  const line = message === '' ? head : `${head} ${message}`;
  return fitWidth(line, room);
}

function count({ progress, total }: Progress): string {
  return total === undefined ? number(progress) : `${number(progress)}/${number(total)}`;
}

/** Whole numbers as they are, others with at most two decimals (`0.33`). */
function number(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100);
}

/** The server's message on one line, without control characters. */
function progressMessage(message: string | undefined): string {
  return terminalText(message ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * `text` cut to `width` terminal columns, ending in `…` when cut. Characters
 * from U+1100 on are counted two columns wide: an overestimate for some, but
 * never an underestimate for wide CJK or emoji, so the line never wraps.
 */
export function fitWidth(text: string, width: number): string {
  let used = 0;
  let out = '';
  const chars = [...text];
  for (const [i, char] of chars.entries()) {
    const cells = cellWidth(char);
    const last = i === chars.length - 1;
    // Keep one column for the ellipsis unless this character ends the text.
    if (used + cells > width - (last ? 0 : 1)) return width > 0 ? `${out}…` : '';
    out += char;
    used += cells;
  }
  return out;
}

function cellWidth(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  // Combining marks (U+0300–U+036F) take no column of their own.
  if (code >= 0x300 && code <= 0x36f) return 0;
  return code >= 0x1100 ? 2 : 1;
}
