/**
 * The pure parts of the terminal elicitation: a `requestedSchema` read into
 * fields, their prompt text, and typed input read into the values sent.
 */
import { describe, expect, it } from 'vitest';
import {
  type Field,
  fieldHint,
  formatProblem,
  formFields,
  MAX_LISTED_OPTIONS,
  MAX_SHOWN_CHARS,
  optionLines,
  prefill,
  readField,
  shownText,
} from '../../src/cli/interactive/fields.js';

type Schema = Parameters<typeof formFields>[0];
const schema = (properties: Record<string, unknown>, required: string[] = []) =>
  ({ type: 'object', properties, required }) as unknown as Schema;
const field = (property: Record<string, unknown>, required = false): Field => {
  const [only] = formFields(schema({ f: property }, required ? ['f'] : []));
  if (!only) throw new Error('no field');
  return only;
};

describe('formFields', () => {
  it('reads each shape of 2025-06-18 and 2025-11-25 in schema order, with labels, defaults and bounds', () => {
    const fields = formFields(
      schema(
        {
          email: { type: 'string', title: 'Email', description: 'Where we write', format: 'email', minLength: 3 },
          age: { type: 'integer', minimum: 0, maximum: 150, default: 30 },
          ratio: { type: 'number' },
          ok: { type: 'boolean', default: false },
          size: { type: 'string', enum: ['s', 'm'], enumNames: ['Small', 'Medium'], default: 'm' },
          color: { type: 'string', oneOf: [{ const: '#f00', title: 'Red' }] },
          tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1, default: ['a'] },
          pets: { type: 'array', items: { anyOf: [{ const: 'cat', title: 'Cat' }] }, maxItems: 1 },
        },
        ['email'],
      ),
    );
    expect(fields).toEqual([
      {
        name: 'email',
        label: 'Email',
        description: 'Where we write',
        required: true,
        kind: 'string',
        format: 'email',
        minLength: 3,
      },
      { name: 'age', label: 'age', required: false, kind: 'integer', minimum: 0, maximum: 150, default: 30 },
      { name: 'ratio', label: 'ratio', required: false, kind: 'number' },
      { name: 'ok', label: 'ok', required: false, kind: 'boolean', default: false },
      {
        name: 'size',
        label: 'size',
        required: false,
        kind: 'choice',
        options: [
          { value: 's', title: 'Small' },
          { value: 'm', title: 'Medium' },
        ],
        default: 'm',
      },
      { name: 'color', label: 'color', required: false, kind: 'choice', options: [{ value: '#f00', title: 'Red' }] },
      {
        name: 'tags',
        label: 'tags',
        required: false,
        kind: 'choices',
        options: [
          { value: 'a', title: 'a' },
          { value: 'b', title: 'b' },
        ],
        minItems: 1,
        default: ['a'],
      },
      {
        name: 'pets',
        label: 'pets',
        required: false,
        kind: 'choices',
        options: [{ value: 'cat', title: 'Cat' }],
        maxItems: 1,
      },
    ]);
  });

  it('drops keywords of the wrong type instead of trusting them', () => {
    expect(field({ type: 'string', minLength: '3', default: 7, format: 1 })).toEqual({
      name: 'f',
      label: 'f',
      required: false,
      kind: 'string',
    });
    expect(field({ type: 'number', minimum: 'a', maximum: Number.NaN })).toEqual({
      name: 'f',
      label: 'f',
      required: false,
      kind: 'number',
    });
  });

  it('makes titles, descriptions and option labels terminal-safe, on one line', () => {
    const shown = field({
      type: 'string',
      title: 'A\x1b[2J\nB',
      description: 'x\x07y',
      oneOf: [{ const: 'v', title: '\x9b1mZ' }],
    });
    expect(shown.label).toBe('A[2J B');
    expect(shown.description).toBe('xy');
    expect(optionLines(shown)).toEqual(['1) 1mZ (v)']);
  });
});

describe('shownText', () => {
  it(`cuts server text past MAX_SHOWN_CHARS (${MAX_SHOWN_CHARS}) with an ellipsis`, () => {
    expect(shownText('a'.repeat(MAX_SHOWN_CHARS))).toBe('a'.repeat(MAX_SHOWN_CHARS));
    expect(shownText('a'.repeat(MAX_SHOWN_CHARS + 1))).toBe(`${'a'.repeat(MAX_SHOWN_CHARS)}…`);
  });

  it('keeps line breaks only when multiline', () => {
    expect(shownText('a\nb\tc')).toBe('a b c');
    expect(shownText('a\nb\tc', true)).toBe('a\nb c');
  });
});

describe('prompt text', () => {
  it('says what each field takes', () => {
    expect(fieldHint(field({ type: 'string', minLength: 2, maxLength: 8 }, true))).toBe('2–8 characters, required');
    expect(fieldHint(field({ type: 'integer', minimum: 1 }))).toBe('integer, at least 1, optional');
    expect(fieldHint(field({ type: 'boolean' }))).toBe('y or n, optional');
    expect(fieldHint(field({ type: 'array', items: { enum: ['a'] }, minItems: 2, maxItems: 2 }))).toBe(
      'any: numbers or values, comma-separated, exactly 2 of them, optional',
    );
  });

  it('puts the default on the line in the form it is typed', () => {
    expect(prefill(field({ type: 'boolean', default: true }))).toBe('y');
    expect(prefill(field({ type: 'number', default: 2.5 }))).toBe('2.5');
    expect(prefill(field({ type: 'array', items: { enum: ['a', 'b'] }, default: ['a', 'b'] }))).toBe('a, b');
    expect(prefill(field({ type: 'string' }))).toBe('');
  });

  it(`numbers at most MAX_LISTED_OPTIONS (${MAX_LISTED_OPTIONS}) options, and says how many more there are`, () => {
    const values = Array.from({ length: MAX_LISTED_OPTIONS + 5 }, (_, i) => `v${i}`);
    const lines = optionLines(field({ type: 'string', enum: values }));
    expect(lines).toHaveLength(MAX_LISTED_OPTIONS + 1);
    expect(lines.at(-1)).toBe('… and 5 more, not numbered: type the value');
    const choice = field({ type: 'string', enum: values });
    // Past the numbered ones, a number is not an index; the value still picks the option.
    expect(readField(choice, String(MAX_LISTED_OPTIONS + 1))).toEqual({ ok: false, problem: expect.any(String) });
    expect(readField(choice, `v${MAX_LISTED_OPTIONS + 2}`)).toEqual({ ok: true, value: `v${MAX_LISTED_OPTIONS + 2}` });
  });
});

describe('readField', () => {
  it('requires an answer for a required field and leaves an optional one out', () => {
    expect(readField(field({ type: 'string' }, true), '')).toEqual({ ok: false, problem: 'an answer is required' });
    expect(readField(field({ type: 'number' }, true), '   ')).toEqual({ ok: false, problem: 'an answer is required' });
    expect(readField(field({ type: 'string' }), '')).toEqual({ ok: true, value: undefined });
  });

  it('keeps a string as typed and checks its length in characters', () => {
    const name = field({ type: 'string', minLength: 2, maxLength: 3 });
    expect(readField(name, ' ab')).toEqual({ ok: true, value: ' ab' });
    expect(readField(name, '😀😀')).toEqual({ ok: true, value: '😀😀' });
    expect(readField(name, 'a').ok).toBe(false);
    expect(readField(name, 'abcd')).toEqual({ ok: false, problem: 'at most 3 characters, got 4' });
  });

  it('checks the string formats email, uri, date and date-time; an unknown format is only a hint', () => {
    expect(formatProblem('email', 'a@b.co')).toBeUndefined();
    expect(formatProblem('email', 'a@b')).toMatch(/not an email/);
    expect(formatProblem('uri', 'https://x.example/a')).toBeUndefined();
    expect(formatProblem('uri', 'x.example')).toMatch(/not a URI/);
    expect(formatProblem('date', '2024-02-29')).toBeUndefined();
    expect(formatProblem('date', '2025-02-29')).toMatch(/not a date/);
    expect(formatProblem('date-time', '2025-01-02T03:04:05Z')).toBeUndefined();
    expect(formatProblem('date-time', '2025-01-02T03:04:05.5+01:00')).toBeUndefined();
    expect(formatProblem('date-time', '2025-01-02T24:00:00Z')).toMatch(/not a date and time/);
    expect(formatProblem('date-time', '2025-01-02')).toMatch(/not a date and time/);
    expect(formatProblem('color', 'anything')).toBeUndefined();
  });

  it('reads numbers in decimal notation only, integers whole, within the range', () => {
    const ratio = field({ type: 'number', minimum: -1, maximum: 1 });
    expect(readField(ratio, '0.25')).toEqual({ ok: true, value: 0.25 });
    expect(readField(ratio, '-1')).toEqual({ ok: true, value: -1 });
    expect(readField(ratio, '.5')).toEqual({ ok: true, value: 0.5 });
    expect(readField(ratio, '1e0')).toEqual({ ok: true, value: 1 });
    for (const bad of ['0x1', 'Infinity', 'NaN', '1,5', 'one']) expect(readField(ratio, bad).ok).toBe(false);
    expect(readField(ratio, '2')).toEqual({ ok: false, problem: 'at most 1' });
    expect(readField(ratio, '1e400').ok).toBe(false);
    const count = field({ type: 'integer' });
    expect(readField(count, '3')).toEqual({ ok: true, value: 3 });
    expect(readField(count, '3.5')).toEqual({ ok: false, problem: 'not a whole number: 3.5' });
  });

  it('reads y/yes/true and n/no/false in any case', () => {
    const ok = field({ type: 'boolean' });
    for (const yes of ['y', 'YES', 'true']) expect(readField(ok, yes)).toEqual({ ok: true, value: true });
    for (const no of ['n', 'No', 'FALSE']) expect(readField(ok, no)).toEqual({ ok: true, value: false });
    expect(readField(ok, 'maybe')).toEqual({ ok: false, problem: 'answer y or n' });
  });

  it('picks one option by number, value or title', () => {
    const color = field({
      type: 'string',
      oneOf: [
        { const: '#f00', title: 'Red' },
        { const: '#0f0', title: 'Green' },
      ],
    });
    expect(readField(color, '2')).toEqual({ ok: true, value: '#0f0' });
    expect(readField(color, '#f00')).toEqual({ ok: true, value: '#f00' });
    expect(readField(color, 'green')).toEqual({ ok: true, value: '#0f0' });
    expect(readField(color, '3').ok).toBe(false);
    expect(readField(color, 'blue')).toEqual({ ok: false, problem: 'not one of the options: "blue"' });
  });

  it('picks several options, each once, within minItems and maxItems', () => {
    const tags = field({ type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2 });
    expect(readField(tags, '1, c')).toEqual({ ok: true, value: ['a', 'c'] });
    expect(readField(tags, 'a,a,1')).toEqual({ ok: true, value: ['a'] });
    expect(readField(tags, 'a,b,c')).toEqual({ ok: false, problem: 'choose at most 2' });
    expect(readField(tags, ',')).toEqual({ ok: false, problem: 'choose at least 1' });
    expect(readField(tags, 'a, z')).toEqual({ ok: false, problem: 'not one of the options: "z"' });
  });
});
