import { describe, expect, it } from 'vitest';
import { Deadlines } from '../../src/client/pending-calls.js';

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
});
