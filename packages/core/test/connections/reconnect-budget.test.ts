import { describe, expect, it } from 'vitest';
import { Connection } from '../../src/connections/index.js';
import { ReconnectBudget } from '../../src/connections/reconnect-budget.js';

const bounds = { maxAttempts: 5, maxElapsedMs: 60_000, baseDelayMs: 100, maxDelayMs: 1000 };

describe('ReconnectBudget', () => {
  it('waits between half a step and the step, the step doubling up to maxDelayMs', () => {
    const low = new ReconnectBudget(bounds, () => 0);
    const high = new ReconnectBudget(bounds, () => 0.999_999);
    const lows = [1, 2, 3, 4, 5].map(() => low.next(0)?.delay);
    const highs = [1, 2, 3, 4, 5].map(() => high.next(0)?.delay);
    expect(lows).toEqual([50, 100, 200, 400, 500]);
    expect(highs).toEqual([100, 200, 400, 800, 1000]);
  });

  it('numbers the attempts from 1 and plans none past maxAttempts until reset', () => {
    const budget = new ReconnectBudget(bounds, () => 0.5);
    const attempts = [1, 2, 3, 4, 5, 6].map(() => budget.next(0)?.attempt);
    expect(attempts).toEqual([1, 2, 3, 4, 5, undefined]);
    budget.reset();
    expect(budget.next(0)?.attempt).toBe(1);
  });

  it('plans no attempt that would start past maxElapsedMs since the first failure', () => {
    const budget = new ReconnectBudget({ ...bounds, maxElapsedMs: 1000 }, () => 0);
    expect(budget.next(10_000)).toEqual({ attempt: 1, delay: 50 });
    expect(budget.next(10_950)).toBeUndefined();
  });
});

describe('Connection bounds', () => {
  it.each([
    ['reconnect.maxAttempts', { reconnect: { maxAttempts: -1 } }],
    ['reconnect.baseDelayMs', { reconnect: { baseDelayMs: Number.NaN } }],
    ['reconnect.maxDelayMs', { reconnect: { maxDelayMs: Infinity } }],
    ['connectTimeout', { connectTimeout: -5 }],
    ['healthCheck.intervalMs', { healthCheck: { intervalMs: Infinity } }],
  ])('refuses %s out of range with a RangeError naming it', (option, options) => {
    expect(() => new Connection({ name: 'x', url: 'http://127.0.0.1:9/mcp' }, options)).toThrow(
      expect.objectContaining({ name: 'RangeError', message: expect.stringContaining(option) }),
    );
  });
});
