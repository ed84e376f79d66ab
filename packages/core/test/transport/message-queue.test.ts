import { describe, expect, it } from 'vitest';
import { MessageQueue } from '../../src/transport/message-queue.js';

describe('MessageQueue', () => {
  it('poll takes what is queued, in order, without waiting, and undefined when nothing is', () => {
    const queue = new MessageQueue<number>();
    expect(queue.poll()).toBeUndefined();
    queue.push(1);
    queue.push(2);
    expect(queue.poll()).toBe(1);
    expect(queue.poll()).toBe(2);
    expect(queue.poll()).toBeUndefined();
    queue.push(3);
    expect(queue.poll()).toBe(3);
  });

  it('a consumer woken for one item polls the rest of what came with it, and iteration goes on after', async () => {
    const queue = new MessageQueue<number>();
    const seen: number[] = [];
    const consumed = (async () => {
      for await (const item of queue) {
        seen.push(item);
        for (let next = queue.poll(); next !== undefined; next = queue.poll()) seen.push(next);
      }
    })();
    await Promise.resolve();
    for (let i = 0; i < 100; i++) queue.push(i);
    await new Promise((resolve) => setTimeout(resolve, 0));
    queue.push(100);
    queue.push(101);
    queue.end();
    await consumed;
    expect(seen).toEqual(Array.from({ length: 102 }, (_, i) => i));
  });

  it('after end, poll still gives what was queued before it, then undefined', () => {
    const queue = new MessageQueue<string>();
    queue.push('a');
    queue.end();
    queue.push('dropped');
    expect(queue.poll()).toBe('a');
    expect(queue.poll()).toBeUndefined();
  });

  it('many items pushed and polled in rounds keep coming in order (the drained array starts over)', () => {
    const queue = new MessageQueue<number>();
    let expected = 0;
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 64; i++) queue.push(round * 64 + i);
      for (let next = queue.poll(); next !== undefined; next = queue.poll()) expect(next).toBe(expected++);
    }
    expect(expected).toBe(50 * 64);
  });
});
