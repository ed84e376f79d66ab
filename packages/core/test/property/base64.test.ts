import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64, encodeBase64, encodeBase64url } from '../../src/util/base64.js';
import { fcParams } from './fc-params.js';

// Node's Buffer is the independent reference: the helper itself uses only btoa/atob.
describe('base64 (util/base64.ts)', () => {
  it('encodes bytes as standard and url-safe base64, and decodes them back', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const standard = Buffer.from(bytes).toString('base64');
        expect(encodeBase64(bytes)).toBe(standard);
        expect(encodeBase64(bytes.slice().buffer)).toBe(standard);
        expect(encodeBase64url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
        expect(Buffer.from(decodeBase64(standard))).toEqual(Buffer.from(bytes));
      }),
      fcParams(200),
    );
  });

  it('encodes a string as its UTF-8 bytes, astral and combining characters included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (text) => {
        expect(encodeBase64(text)).toBe(Buffer.from(text, 'utf8').toString('base64'));
        expect(encodeBase64url(text)).toBe(Buffer.from(text, 'utf8').toString('base64url'));
      }),
      fcParams(200),
    );
    expect(encodeBase64('Zürich 日本 😀')).toBe('WsO8cmljaCDml6XmnKwg8J+YgA==');
  });

  it('refuses invalid base64 instead of decoding garbage', () => {
    expect(() => decodeBase64('not base64!')).toThrow();
  });
});
