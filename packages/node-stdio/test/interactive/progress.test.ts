/**
 * The progress line's pure parts (layout, width, sanitising) and its redraw
 * throttle, driven by a clock the test moves.
 */
import { describe, expect, it } from 'vitest';
import {
  barLine,
  fitWidth,
  plainLine,
  progressReporter,
  REDRAW_INTERVAL_MS,
  type ReporterClock,
} from '../../src/cli/interactive/progress.js';

/** Carriage return and erase-line: what starts every redraw. */
const ERASE = '\r\x1b[2K';

/** A clock whose time and timers move only when the test says. */
function manualClock() {
  let now = 0;
  const timers = new Map<number, { at: number; callback: () => void }>();
  let ids = 0;
  const clock: ReporterClock = {
    now: () => now,
    setTimeout: (callback, ms) => {
      ids += 1;
      timers.set(ids, { at: now + ms, callback });
      return ids;
    },
    clearTimeout: (id) => void timers.delete(id as number),
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [id, timer] of [...timers]) {
      if (timer.at <= now) {
        timers.delete(id);
        timer.callback();
      }
    }
  };
  return { clock, advance, pending: () => timers.size };
}

function terminal(columns = 80) {
  const writes: string[] = [];
  return { isTTY: true, columns, write: (chunk: string) => writes.push(chunk), writes };
}

describe('progress lines', () => {
  it('plain: `progress n/total message`, or `progress n message` without a total', () => {
    expect(plainLine({ progress: 3, total: 10, message: 'step 3' })).toBe('progress 3/10 step 3');
    expect(plainLine({ progress: 3 })).toBe('progress 3');
    expect(plainLine({ progress: 1 / 3, total: 1 })).toBe('progress 0.33/1');
  });

  it("plain and bar lines strip the message's control characters and put it on one line", () => {
    const message = '\x1b]0;title\x07a\nb\r\x9b2Jc\t d';
    expect(plainLine({ progress: 1, message })).toBe('progress 1 ]0;titlea b2Jc d');
    expect(barLine({ progress: 1, message }, 80, '|')).toBe('| 1 ]0;titlea b2Jc d');
  });

  it('bar: filled in proportion, clamped to 0..total', () => {
    expect(barLine({ progress: 5, total: 10 }, 80, '|')).toBe(`[${'#'.repeat(10)}${'-'.repeat(10)}] 5/10`);
    expect(barLine({ progress: 15, total: 10 }, 80, '|')).toBe(`[${'#'.repeat(20)}] 15/10`);
    expect(barLine({ progress: -1, total: 10 }, 80, '|')).toBe(`[${'-'.repeat(20)}] -1/10`);
    // A total of 0 cannot be a proportion: the turning mark, and the numbers as sent.
    expect(barLine({ progress: 4, total: 0 }, 80, '/')).toBe('/ 4/0');
  });

  it('never reaches the last column: the message is cut with an ellipsis', () => {
    const line = barLine({ progress: 1, total: 2, message: 'x'.repeat(200) }, 40, '|');
    expect([...line]).toHaveLength(39);
    expect(line.endsWith('x…')).toBe(true);
  });

  it('counts wide characters as two columns', () => {
    expect(fitWidth('日本語', 6)).toBe('日本語');
    expect(fitWidth('日本語', 5)).toBe('日本…');
    expect(fitWidth('abc', 3)).toBe('abc');
    expect(fitWidth('abcd', 3)).toBe('ab…');
    expect(fitWidth('abcd', 0)).toBe('');
  });
});

describe('the terminal reporter', () => {
  it(`redraws at most once per REDRAW_INTERVAL_MS (${REDRAW_INTERVAL_MS} ms), then draws the latest`, () => {
    const { clock, advance, pending } = manualClock();
    const stderr = terminal();
    const reporter = progressReporter(stderr, clock);
    for (let i = 1; i <= 500; i++) reporter.update({ progress: i, total: 1000 });
    // The first is drawn at once; the 499 after it within the interval wait for one redraw.
    expect(stderr.writes).toHaveLength(1);
    expect(stderr.writes[0]).toBe(`${ERASE}[${'-'.repeat(20)}] 1/1000`);
    advance(REDRAW_INTERVAL_MS - 1);
    expect(stderr.writes).toHaveLength(1);
    advance(1);
    expect(stderr.writes).toHaveLength(2);
    expect(stderr.writes[1]).toContain(' 500/1000');
    expect(pending()).toBe(0);
    advance(REDRAW_INTERVAL_MS * 10);
    expect(stderr.writes).toHaveLength(2); // nothing new, nothing drawn
  });

  it('clear erases the line and drops a redraw still due', () => {
    const { clock, advance, pending } = manualClock();
    const stderr = terminal();
    const reporter = progressReporter(stderr, clock);
    reporter.update({ progress: 1 });
    reporter.update({ progress: 2 });
    expect(pending()).toBe(1);
    reporter.clear();
    expect(pending()).toBe(0);
    expect(stderr.writes.at(-1)).toBe(ERASE);
    advance(REDRAW_INTERVAL_MS);
    expect(stderr.writes.at(-1)).toBe(ERASE);
  });

  it('erases the line around other writes and draws it again after', () => {
    const { clock } = manualClock();
    const stderr = terminal();
    const reporter = progressReporter(stderr, clock);
    reporter.update({ progress: 1, total: 2 });
    stderr.writes.length = 0;
    reporter.around(() => stderr.write('server log\n'));
    expect(stderr.writes[0]).toBe(ERASE);
    expect(stderr.writes[1]).toBe('server log\n');
    expect(stderr.writes[2]).toBe(`${ERASE}[${'#'.repeat(10)}${'-'.repeat(10)}] 1/2`);
  });

  it('draws nothing while suspended (a prompt owns the terminal), and the latest on resume', () => {
    const { clock, advance } = manualClock();
    const stderr = terminal();
    const reporter = progressReporter(stderr, clock);
    reporter.suspend();
    reporter.update({ progress: 1 });
    advance(REDRAW_INTERVAL_MS * 2);
    reporter.update({ progress: 2 });
    expect(stderr.writes).toEqual([]);
    reporter.resume();
    expect(stderr.writes).toEqual([expect.stringMatching(/ 2$/)]);
  });

  it('writes plain lines, one per notification, when stderr is not a terminal', () => {
    const writes: string[] = [];
    const reporter = progressReporter({ write: (chunk: string) => writes.push(chunk) });
    for (let i = 1; i <= 3; i++) reporter.update({ progress: i, total: 3, message: `m${i}` });
    reporter.clear();
    expect(writes).toEqual(['progress 1/3 m1\n', 'progress 2/3 m2\n', 'progress 3/3 m3\n']);
  });
});
