import { describe, expect, it } from 'vitest';
import { jsonBytes, MAX_VIEW_MESSAGE_DEPTH, MessageRate } from '../../src/apps/view-bounds.js';

const utf8 = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).byteLength;

describe('jsonBytes: the size of a message from a view, counted without building its JSON', () => {
  it('is never below the UTF-8 size of the JSON text, for ASCII, accents, CJK, emoji and escapes', () => {
    const samples = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'ui/message',
        params: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      },
      { text: 'café – naïve', n: -12.5, ok: true, none: null, list: [1, 2, [3]] },
      { cjk: '漢字かな', emoji: '🙂🚀', escapes: 'quote " backslash \\ newline \n tab \t' },
      [],
      {},
    ];
    for (const sample of samples) {
      const counted = jsonBytes(sample, 1_000_000);
      expect(counted).toBeGreaterThanOrEqual(utf8(sample));
      // And close to it: within the escape allowance, not a loose over-estimate.
      expect(counted).toBeLessThanOrEqual(utf8(sample) * 2 + 8);
    }
  });

  it('stops at the bound: a 20 MB string is over 1 MiB without reading past it', () => {
    const big = 'x'.repeat(20_000_000);
    const counted = jsonBytes({ params: { content: big } }, 1_048_576);
    expect(counted).toBeGreaterThan(1_048_576);
    expect(jsonBytes({ text: 'é'.repeat(600_000) }, 1_048_576)).toBeGreaterThan(1_048_576);
    expect(jsonBytes({ text: 'é'.repeat(500_000) }, 1_048_576)).toBeLessThanOrEqual(1_048_576);
  });

  it('counts many small members the same way: a wide object over the bound is over it', () => {
    const wide = Object.fromEntries(Array.from({ length: 200_000 }, (_, index) => [`k${index}`, index]));
    expect(jsonBytes(wide, 1_048_576)).toBeGreaterThan(1_048_576);
  });

  it('refuses what JSON has no form for (a structured clone may carry it) and nesting past the depth bound', () => {
    for (const value of [
      new Map(),
      new ArrayBuffer(8),
      new Date(0),
      Number.NaN,
      Number.POSITIVE_INFINITY,
      10n,
      () => 1,
    ]) {
      expect(jsonBytes({ value }, 1_000_000)).toBeUndefined();
    }
    // An optional field an SDK left undefined is what JSON leaves out, not garbage.
    expect(jsonBytes({ method: 'ui/message', params: { _meta: undefined } }, 1_000)).toBeTypeOf('number');
    let deep: unknown = 'leaf';
    for (let level = 0; level < MAX_VIEW_MESSAGE_DEPTH + 1; level++) deep = [deep];
    expect(jsonBytes(deep, 1_000_000)).toBeUndefined();
    let allowed: unknown = 'leaf';
    for (let level = 0; level < MAX_VIEW_MESSAGE_DEPTH - 1; level++) allowed = { a: allowed };
    expect(jsonBytes(allowed, 1_000_000)).toBeTypeOf('number');
  });
});

describe('MessageRate: messages per second from a view', () => {
  it('lets a burst up to the limit through, refuses the next, and refills at the rate', () => {
    let now = 0;
    const rate = new MessageRate(10, () => now);
    for (let message = 0; message < 10; message++) expect(rate.take()).toBe(true);
    expect(rate.take()).toBe(false);
    now += 100;
    expect(rate.take()).toBe(true);
    expect(rate.take()).toBe(false);
    now += 1_000;
    for (let message = 0; message < 10; message++) expect(rate.take()).toBe(true);
    expect(rate.take()).toBe(false);
  });

  it('refuses a sustained flood however it is spread: 10,000 messages over 1 s pass at most 2 × the rate', () => {
    let now = 0;
    const rate = new MessageRate(100, () => now);
    let passed = 0;
    for (let message = 0; message < 10_000; message++) {
      now += 0.1;
      if (rate.take()) passed++;
    }
    expect(passed).toBeLessThanOrEqual(200);
    expect(passed).toBeGreaterThanOrEqual(100);
  });
});
