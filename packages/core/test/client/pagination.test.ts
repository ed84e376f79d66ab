import { describe, expect, it } from 'vitest';
import { collectPages, page } from '../../src/client/pagination.js';

describe('collectPages', () => {
  it('gathers a page of 300,000 items when an app raises maxListItems past the default', async () => {
    // Spreading that many items into one push() call is a RangeError (too many arguments).
    const items = Array.from({ length: 300_000 }, (_, index) => index);
    const all = await collectPages('tools/list', { maxListItems: 1_000_000 }, async () => page(items, undefined));
    expect(all).toHaveLength(300_000);
    expect(all.at(-1)).toBe(299_999);
  });
});
