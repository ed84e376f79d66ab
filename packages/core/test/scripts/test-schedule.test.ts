import { describe, expect, it } from 'vitest';
import { DEFAULT_JOBS, jobsFrom, MAX_JOBS, schedule } from '../../../../scripts/test/schedule.mjs';

interface Step {
  name: string;
  after?: string[];
  shares?: string[];
}

/** Runs `steps` with `jobs` at a time; each step takes one tick per letter of its name, and the log says what ran when. */
async function record(steps: Step[], jobs: number) {
  const log: string[] = [];
  const running = new Set<string>();
  let most = 0;
  const outcomes = await schedule(steps, jobs, async (step) => {
    running.add(step.name);
    most = Math.max(most, running.size);
    log.push(`start ${step.name} with ${[...running].sort().join(',')}`);
    for (let tick = 0; tick < step.name.length; tick += 1) await new Promise((resolve) => setImmediate(resolve));
    running.delete(step.name);
    log.push(`end ${step.name}`);
    return `${step.name} done`;
  });
  return { log, most, outcomes };
}

const position = (log: string[], entry: string) => {
  const index = log.findIndex((line) => line.startsWith(entry));
  expect(index, entry).toBeGreaterThanOrEqual(0);
  return index;
};

describe('npm test: the step schedule', () => {
  it('never runs more steps at once than it is given, and returns every outcome in list order', async () => {
    const steps = ['aaaaaa', 'bbb', 'c', 'dddd', 'ee', 'f'].map((name) => ({ name }));
    const { most, outcomes } = await record(steps, 2);
    expect(most).toBe(2);
    expect(outcomes).toEqual(steps.map((step) => `${step.name} done`));
    expect((await record(steps, 1)).most).toBe(1);
    expect((await record(steps, 6)).most).toBe(6);
  });

  it('starts a step only once each step it waits for has ended, and in list order among those that may start', async () => {
    const { log } = await record(
      [
        { name: 'build' },
        { name: 'lint' },
        { name: 'vitest', after: ['build'] },
        { name: 'deno', after: ['build'] },
        { name: 'bun', after: ['build', 'lint'] },
      ],
      2,
    );
    for (const step of ['vitest', 'deno', 'bun']) {
      expect(position(log, 'end build')).toBeLessThan(position(log, `start ${step}`));
    }
    expect(position(log, 'end lint')).toBeLessThan(position(log, 'start bun'));
    expect(position(log, 'start vitest')).toBeLessThan(position(log, 'start deno'));
  });

  it('never runs two steps that share a name at once, whichever comes first', async () => {
    const { log } = await record(
      [
        { name: 'conformance', shares: ['.tmp/conformance'] },
        { name: 'unhandled-errors-fail', shares: ['.tmp/conformance', 'x'] },
        { name: 'other', shares: ['x'] },
        { name: 'free' },
      ],
      4,
    );
    expect(log.filter((line) => line.startsWith('start'))).toEqual([
      'start conformance with conformance',
      'start other with conformance,other',
      'start free with conformance,free,other',
      expect.stringMatching(/^start unhandled-errors-fail with unhandled-errors-fail/),
    ]);
    expect(position(log, 'end conformance')).toBeLessThan(position(log, 'start unhandled-errors-fail'));
    expect(position(log, 'end other')).toBeLessThan(position(log, 'start unhandled-errors-fail'));
  });

  it('refuses a step that waits for a step that does not exist, steps that wait for each other, and a bad job count', async () => {
    const run = async () => undefined;
    await expect(schedule([{ name: 'a', after: ['b'] }], 2, run)).rejects.toThrow(
      'step a waits for b, which is not a step',
    );
    await expect(
      schedule(
        [
          { name: 'a', after: ['b'] },
          { name: 'b', after: ['a'] },
        ],
        2,
        run,
      ),
    ).rejects.toThrow('steps a, b wait for each other');
    await expect(schedule([{ name: 'a' }, { name: 'a' }], 2, run)).rejects.toThrow('two steps have the same name');
    await expect(schedule([{ name: 'a' }], 0, run)).rejects.toThrow(RangeError);
    await expect(schedule([{ name: 'a' }], 1.5, run)).rejects.toThrow(RangeError);
  });

  it('takes MCP_TEST_JOBS from 1 to 8, 2 when unset, and refuses anything else', () => {
    expect([DEFAULT_JOBS, MAX_JOBS]).toEqual([2, 8]);
    expect(jobsFrom(undefined)).toBe(2);
    expect(jobsFrom('')).toBe(2);
    expect(jobsFrom('1')).toBe(1);
    expect(jobsFrom('8')).toBe(8);
    for (const jobs of ['0', '9', '2.5', '-1', 'three', 'Infinity']) {
      expect(() => jobsFrom(jobs)).toThrow(
        new RangeError(`MCP_TEST_JOBS must be a whole number from 1 to 8, not "${jobs}"`),
      );
    }
  });
});
