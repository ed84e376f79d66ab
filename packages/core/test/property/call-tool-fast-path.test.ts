import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCallTool, parseCallToolResult } from '../../src/client/results/decode.js';
import { fcParams } from './fc-params.js';

// parseCallTool skips the schema's generic walk for results of plain text parts (client/results/decode.ts). It must
// give exactly what the schema path gives, for every value a server can send: the same result, or the same error.

/** A text part, right or nearly right: extra keys, annotations, `_meta`, a `text` that is no string. */
const textPartArb = fc.record(
  {
    type: fc.oneof(fc.constant('text'), fc.constantFrom('image', 'Text', 'resource_link', '')),
    text: fc.oneof(fc.string({ maxLength: 8 }), fc.jsonValue()),
    annotations: fc.oneof(fc.record({ priority: fc.double() }), fc.jsonValue()),
    _meta: fc.oneof(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue(), { maxKeys: 2 }), fc.jsonValue()),
    extra: fc.jsonValue(),
  },
  { requiredKeys: ['type', 'text'] },
);

/** A part of any kind, mostly text parts. */
const partArb = fc.oneof({ weight: 6, arbitrary: textPartArb }, { weight: 1, arbitrary: fc.jsonValue() });

/** Results shaped like a text-only tool result, each member present or not, right or wrong. */
const resultArb = fc.record(
  {
    content: fc.oneof(
      { weight: 6, arbitrary: fc.array(partArb, { maxLength: 4 }) },
      { weight: 1, arbitrary: fc.jsonValue() },
    ),
    isError: fc.oneof(fc.boolean(), fc.constantFrom('true', 0, null)),
    structuredContent: fc.jsonValue(),
    _meta: fc.oneof(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue(), { maxKeys: 2 }), fc.jsonValue()),
    resultType: fc.oneof(fc.constantFrom('complete', 'input_required', 'task'), fc.jsonValue()),
    other: fc.jsonValue(),
  },
  { requiredKeys: [] },
);

/** What a parser made of `raw`: its value, or the message and data of the error it threw. */
function outcome(parse: (raw: unknown) => unknown, raw: unknown): unknown {
  try {
    return { value: parse(raw) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : error, data: (error as { data?: unknown }).data };
  }
}

describe('tools/call results: the text-only fast path', () => {
  it('gives what the schema gives, result or error, on arbitrary values', () => {
    fc.assert(
      fc.property(fc.oneof({ weight: 5, arbitrary: resultArb }, { weight: 1, arbitrary: fc.jsonValue() }), (raw) => {
        expect(outcome(parseCallTool, raw)).toEqual(outcome(parseCallToolResult, raw));
      }),
      fcParams(3000),
    );
  });

  it('is taken for a result of text parts (its content is the array that came, not a copy) and not otherwise', () => {
    const plain = {
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b', extra: 1 },
      ],
      isError: false,
    };
    expect(parseCallTool(plain)).toMatchObject({ content: plain.content, text: 'ab', isError: false });
    expect(parseCallTool(plain).content).toBe(plain.content);
    const annotated = { content: [{ type: 'text', text: 'a', annotations: { priority: 1 } }] };
    expect(parseCallTool(annotated).content).not.toBe(annotated.content);
    expect(parseCallTool(annotated)).toEqual(parseCallToolResult(annotated));
  });

  it('refuses a sparse content array, as the schema does', () => {
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point
    const sparse = { content: [{ type: 'text', text: 'a' }, , { type: 'text', text: 'b' }] };
    expect(() => parseCallTool(sparse)).toThrow('tools/call: invalid result');
    expect(outcome(parseCallTool, sparse)).toEqual(outcome(parseCallToolResult, sparse));
  });
});
