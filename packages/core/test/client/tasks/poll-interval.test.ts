import { afterEach, describe, expect, it } from 'vitest';
import { type DurationPeer, durationPeer } from '../duration-peer.js';

const open: DurationPeer[] = [];
afterEach(async () => {
  for (const peer of open.splice(0)) await peer.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A timer given more than 2^31 - 1 ms fires after 1 ms, so a server suggesting
 * `pollInterval: 1e12` used to be polled in a tight loop (hundreds of `tasks/get`
 * a second). The wait is capped at 60 s instead: in a 300 ms window the client
 * sends no poll after the one that starts following the task.
 */
describe("a server's pollInterval of 1e12", () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`${era}: tasks.result() polls once and then waits, not a 1 ms loop`, async () => {
      const peer = await durationPeer({ era, pollInterval: 1e12 });
      open.push(peer);
      const stop = new AbortController();
      const following = peer.client.tasks.result('t-1', { signal: stop.signal }).catch((error: unknown) => error);
      // The first poll reads the task (the tasks module loads first); the wait is measured from there.
      while (peer.polls() === 0) await sleep(5);
      await sleep(300);
      const polls = peer.polls();
      stop.abort();
      expect(await following).toBeInstanceOf(Error);
      expect(polls).toBe(1);
    });
  }

  it('modern: a tools/call answered with such a task is not polled for 300 ms, and giving up cancels it', async () => {
    const peer = await durationPeer({ era: 'modern', pollInterval: 1e12 });
    open.push(peer);
    const stop = new AbortController();
    const calling = peer.client.callTool('slow', {}, { signal: stop.signal }).catch((error: unknown) => error);
    await sleep(300);
    const polls = peer.polls();
    stop.abort();
    expect(await calling).toBeInstanceOf(Error);
    expect(polls).toBe(0);
    await sleep(20);
    expect(peer.methods.filter((method) => method.startsWith('tasks/'))).toEqual(['tasks/cancel']);
  });
});
