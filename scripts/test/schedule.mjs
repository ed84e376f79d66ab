/**
 * Runs a list of steps a few at a time, in an order a small dependency graph
 * allows. `npm test` (scripts/test.mjs) uses it for its steps.
 */

/** How many steps `npm test` runs at once when MCP_TEST_JOBS does not say: beside vitest's two workers, a third step starved the timing-bound tests on a 2-core machine. */
export const DEFAULT_JOBS = 2;
/** The most MCP_TEST_JOBS may ask for. */
export const MAX_JOBS = 8;

/** The job count MCP_TEST_JOBS (`value`) asks for: {@link DEFAULT_JOBS} when unset; a RangeError unless 1 to {@link MAX_JOBS}. */
export function jobsFrom(value) {
  if (value === undefined || value === '') return DEFAULT_JOBS;
  const jobs = Number(value);
  if (Number.isInteger(jobs) && jobs >= 1 && jobs <= MAX_JOBS) return jobs;
  throw new RangeError(`MCP_TEST_JOBS must be a whole number from 1 to ${MAX_JOBS}, not ${JSON.stringify(value)}`);
}

/**
 * Runs `steps` with at most `jobs` of them under way, and resolves with each
 * step's outcome in list order. A step starts once every step named in its
 * `after` has ended, whether it passed or not (so one failure does not hide the
 * others), and while no running step holds a name in its `shares` (a folder or
 * port two steps would clobber). Among the steps that may start, the earliest
 * in the list starts first, so the list order is also the priority order.
 * `run(step)` must resolve, never reject.
 */
export async function schedule(steps, jobs, run) {
  if (!Number.isInteger(jobs) || jobs < 1) throw new RangeError(`jobs must be a whole number >= 1, not ${jobs}`);
  const names = new Set(steps.map((step) => step.name));
  if (names.size !== steps.length) throw new Error('two steps have the same name');
  for (const step of steps) {
    for (const name of step.after ?? []) {
      if (!names.has(name)) throw new Error(`step ${step.name} waits for ${name}, which is not a step`);
    }
  }
  const ended = new Set();
  const held = new Set();
  const outcomes = new Map();
  const running = new Map();
  const pending = [...steps];
  const mayStart = (step) =>
    (step.after ?? []).every((name) => ended.has(name)) && !(step.shares ?? []).some((name) => held.has(name));

  while (pending.length > 0 || running.size > 0) {
    for (let index = 0; running.size < jobs && index < pending.length; ) {
      const step = pending[index];
      if (!mayStart(step)) {
        index += 1;
        continue;
      }
      pending.splice(index, 1);
      for (const name of step.shares ?? []) held.add(name);
      const done = run(step).then((outcome) => {
        outcomes.set(step.name, outcome);
        return step;
      });
      running.set(step.name, done);
    }
    if (running.size === 0) {
      throw new Error(`steps ${pending.map((step) => step.name).join(', ')} wait for each other`);
    }
    const step = await Promise.race(running.values());
    running.delete(step.name);
    ended.add(step.name);
    for (const name of step.shares ?? []) held.delete(name);
  }
  return steps.map((step) => outcomes.get(step.name));
}
