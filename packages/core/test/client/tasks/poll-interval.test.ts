import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { POLL_INTERVAL } from '../../../src/client/tasks/index.js';
import { type DurationPeer, durationPeer } from '../duration-peer.js';

const open: DurationPeer[] = [];
// The client's waits run on fake time: a minute of it passes in no time at all.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(async () => {
  vi.useRealTimers();
  for (const peer of open.splice(0)) await peer.close();
});

/** Lets the client's chain of promises and immediates run, without moving the (fake) clock. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/** Moves the fake clock to just before the longest wait between polls the client allows. */
async function justBeforeTheLongestWait(): Promise<void> {
  await vi.advanceTimersByTimeAsync(POLL_INTERVAL.max - 1);
  await settle();
}

/**
 * A timer given more than 2^31 - 1 ms fires after 1 ms, so a server suggesting
 * `pollInterval: 1e12` used to be polled in a tight loop (hundreds of `tasks/get`
 * a second). The wait is capped at 60 s instead: until then the client sends no
 * poll after the one that starts following the task.
 */
describe("a server's pollInterval of 1e12", () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`${era}: tasks.result() polls once and then waits, not a 1 ms loop`, async () => {
      const peer = await durationPeer({ era, pollInterval: 1e12 });
      open.push(peer);
      const stop = new AbortController();
      const following = peer.client.tasks.result('t-1', { signal: stop.signal }).catch((error: unknown) => error);
      // The first poll reads the task (the tasks module loads first); the wait is measured from there.
      while (peer.polls() === 0) await settle();
      await justBeforeTheLongestWait();
      const polls = peer.polls();
      stop.abort();
      expect(await following).toBeInstanceOf(Error);
      expect(polls).toBe(1);
    });
  }

  it('modern: a tools/call answered with such a task is not polled before 60 s, and giving up cancels it', async () => {
    const peer = await durationPeer({ era: 'modern', pollInterval: 1e12 });
    open.push(peer);
    const stop = new AbortController();
    const calling = peer.client.callTool('slow', {}, { signal: stop.signal }).catch((error: unknown) => error);
    await settle();
    await justBeforeTheLongestWait();
    const polls = peer.polls();
    stop.abort();
    expect(await calling).toBeInstanceOf(Error);
    expect(polls).toBe(0);
    await settle();
    expect(peer.methods.filter((method) => method.startsWith('tasks/'))).toEqual(['tasks/cancel']);
  });
});
