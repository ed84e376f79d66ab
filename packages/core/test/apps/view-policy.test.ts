import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { linkToOpen, MAX_VIEW_LINK_LENGTH } from '../../src/apps/app-link.js';
import { mayShowIn } from '../../src/apps/display-mode.js';
import { ViewMessageParamsSchema, ViewSizeParamsSchema } from '../../src/apps/view-messages.js';

describe('what a view may ask', () => {
  it('opens https links only: javascript:, data:, file:, http: (even loopback), credentials and garbage are refused', () => {
    expect(linkToOpen('https://example.com/a?b=c#d')?.href).toBe('https://example.com/a?b=c#d');
    for (const url of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'http://example.com/',
      'http://localhost:3000/',
      'https://user:secret@example.com/',
      'blob:https://example.com/1',
      'not a url',
      `https://example.com/${'a'.repeat(MAX_VIEW_LINK_LENGTH)}`,
    ]) {
      expect(linkToOpen(url), url).toBeUndefined();
    }
  });

  it('switches display mode only to one the host lists and the view declared (when it declared any)', () => {
    expect(mayShowIn('fullscreen', ['inline', 'fullscreen'], ['inline', 'fullscreen'])).toBe(true);
    expect(mayShowIn('fullscreen', ['inline', 'fullscreen'], undefined)).toBe(true);
    expect(mayShowIn('fullscreen', ['inline', 'fullscreen'], ['inline'])).toBe(false);
    expect(mayShowIn('pip', ['inline', 'fullscreen'], ['pip'])).toBe(false);
    expect(mayShowIn('fullscreen', undefined, ['fullscreen'])).toBe(false);
  });

  it('takes ui/message content as an array of blocks (ext-apps 2.x) or as one block (the spec’s prose), always giving an array', () => {
    const block = { type: 'text', text: 'hello' };
    expect(v.parse(ViewMessageParamsSchema, { role: 'user', content: [block, block] }).content).toEqual([block, block]);
    expect(v.parse(ViewMessageParamsSchema, { role: 'user', content: block }).content).toEqual([block]);
    expect(v.safeParse(ViewMessageParamsSchema, { role: 'assistant', content: block }).success).toBe(false);
    expect(v.safeParse(ViewMessageParamsSchema, { role: 'user', content: 'hello' }).success).toBe(false);
    expect(v.safeParse(ViewMessageParamsSchema, { role: 'user' }).success).toBe(false);
  });

  it('reads a size change as finite, non-negative pixels', () => {
    expect(v.safeParse(ViewSizeParamsSchema, { width: 300, height: 200.5 }).success).toBe(true);
    expect(v.safeParse(ViewSizeParamsSchema, { height: 200 }).success).toBe(true);
    for (const height of [-1, Number.POSITIVE_INFINITY, Number.NaN, '200']) {
      expect(v.safeParse(ViewSizeParamsSchema, { height }).success, String(height)).toBe(false);
    }
  });
});
