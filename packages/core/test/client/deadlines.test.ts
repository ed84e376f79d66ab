import { describe, expect, it } from 'vitest';
import { Deadlines } from '../../src/client/rpc/pending-calls.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('call deadlines on one shared timer', () => {
  it('expires a deadline once its time passes, and never one that was stopped', async () => {
    const deadlines = new Deadlines();
    const fired: string[] = [];
    deadlines.start(20, () => fired.push('kept'));
    deadlines.stop(deadlines.start(20, () => fired.push('stopped')));
    await sleep(60);
    expect(fired).toEqual(['kept']);
  });

  it('restart pushes a deadline back by its whole span (progress resets the timeout)', async () => {
    const deadlines = new Deadlines();
    let expiredAt = 0;
    const started = performance.now();
    const deadline = deadlines.start(60, () => {
      expiredAt = performance.now() - started;
    });
    await sleep(40);
    deadlines.restart(deadline);
    await sleep(40);
    expect(expiredAt).toBe(0);
    await sleep(60);
    expect(expiredAt).toBeGreaterThanOrEqual(95);
  });

  it('fires a short deadline on time though a longer one armed the timer first', async () => {
    const deadlines = new Deadlines();
    const fired: string[] = [];
    deadlines.start(500, () => fired.push('long'));
    deadlines.start(15, () => fired.push('short'));
    await sleep(60);
    expect(fired).toEqual(['short']);
    deadlines.clear();
  });

  it('expires each of many deadlines in turn, and none after clear()', async () => {
    const deadlines = new Deadlines();
    const fired: number[] = [];
    for (const ms of [30, 10, 20]) deadlines.start(ms, () => fired.push(ms));
    const late = deadlines.start(80, () => fired.push(80));
    await sleep(55);
    expect(fired).toEqual([10, 20, 30]);
    deadlines.clear();
    deadlines.restart(late);
    await sleep(60);
    expect(fired).toEqual([10, 20, 30]);
  });

  it('treats a missing, zero, negative or infinite span as no deadline', async () => {
    const deadlines = new Deadlines();
    const fired: unknown[] = [];
    for (const ms of [undefined, 0, -5, Number.POSITIVE_INFINITY, Number.NaN])
      deadlines.start(ms, () => fired.push(ms));
    await sleep(20);
    expect(fired).toEqual([]);
  });

  it('stopping a deadline twice, or after it expired, drops no other deadline', async () => {
    const deadlines = new Deadlines();
    const fired: string[] = [];
    const first = deadlines.start(10, () => fired.push('first'));
    const second = deadlines.start(1000, () => fired.push('second'));
    deadlines.start(25, () => fired.push('third'));
    deadlines.stop(second);
    deadlines.stop(second);
    await sleep(15);
    deadlines.stop(first);
    await sleep(30);
    expect(fired).toEqual(['first', 'third']);
  });

  it('keeps track of many deadlines started and stopped in any order', async () => {
    const deadlines = new Deadlines();
    const fired = new Set<number>();
    const started = Array.from({ length: 200 }, (_, i) => deadlines.start(i % 2 === 0 ? 20 : 5000, () => fired.add(i)));
    // Stop every third, from the back, then the odd ones from the front: each removal moves another into its place.
    for (let i = started.length - 1; i >= 0; i -= 3) deadlines.stop(started[i]);
    for (let i = 1; i < started.length; i += 2) deadlines.stop(started[i]);
    await sleep(60);
    const expected = started.map((_, i) => i).filter((i) => i % 2 === 0 && (started.length - 1 - i) % 3 !== 0);
    expect([...fired].sort((a, b) => a - b)).toEqual(expected);
    deadlines.clear();
  });
});
