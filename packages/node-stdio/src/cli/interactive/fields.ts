/**
 * The pure half of answering an elicitation form in the terminal: a server's
 * `requestedSchema` read into the fields to prompt for, each field's prompt
 * text, and what the user typed turned into the value the form sends (or the
 * reason it is refused, so the field is asked again). Nothing here reads or
 * writes a stream. The schema comes from the server: every keyword is checked
 * before it is used, and every string shown goes through `shownText`.
 */
import type { ElicitRequestFormParams } from '@mcp/core';
import { terminalText } from '../terminal-text.js';

/** One option of an enum field: the value sent, and the label shown. */
export interface FieldOption {
  readonly value: string;
  readonly title: string;
}

/** A field of the form, in the shape the prompt needs. */
export type Field = {
  readonly name: string;
  /** The title, else the property name; shown, so already made terminal-safe. */
  readonly label: string;
  readonly description?: string;
  readonly required: boolean;
} & (
  | {
      readonly kind: 'string';
      readonly minLength?: number;
      readonly maxLength?: number;
      readonly format?: string;
      readonly default?: string;
    }
  | {
      readonly kind: 'number' | 'integer';
      readonly minimum?: number;
      readonly maximum?: number;
      readonly default?: number;
    }
  | { readonly kind: 'boolean'; readonly default?: boolean }
  | { readonly kind: 'choice'; readonly options: readonly FieldOption[]; readonly default?: string }
  | {
      readonly kind: 'choices';
      readonly options: readonly FieldOption[];
      readonly minItems?: number;
      readonly maxItems?: number;
      readonly default?: readonly string[];
    }
);

/** A value the form may send for one field (`ElicitResult.content`). */
export type FieldValue = string | number | boolean | string[];

/** What the user typed, read for one field. */
export type Reading =
  | { readonly ok: true; readonly value: FieldValue }
  /** Left empty, and the field is optional: it is left out of the answer. */
  | { readonly ok: true; readonly value: undefined }
  | { readonly ok: false; readonly problem: string };

/** Server text longer than this (a message, a title, a description, an option) is cut, with `…`. */
export const MAX_SHOWN_CHARS = 1000;
/** An enum field lists at most this many options by number; the rest can still be typed by value. */
export const MAX_LISTED_OPTIONS = 50;

type Json = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const stringOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const numberOf = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
const stringsOf = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;

/**
 * Server text made fit to show: no terminal control characters, no line
 * breaks unless `multiline`, at most MAX_SHOWN_CHARS characters.
 */
export function shownText(text: string, multiline = false): string {
  const clean = terminalText(text);
  const flat = multiline ? clean.replace(/\t/g, ' ') : clean.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length > MAX_SHOWN_CHARS ? `${chars.slice(0, MAX_SHOWN_CHARS).join('')}…` : flat;
}

/**
 * The fields of a form, in the schema's order. The client has already checked
 * the schema against the spec's shapes (2025-06-18, enums of 2025-11-25), so a
 * property of any other shape cannot reach here; one that still does is read
 * as a plain string field.
 */
export function formFields(schema: ElicitRequestFormParams['requestedSchema']): Field[] {
  const required = new Set(stringsOf(schema.required) ?? []);
  return Object.entries(schema.properties).map(([name, property]) =>
    fieldOf(name, property as Json, required.has(name)),
  );
}

function fieldOf(name: string, property: Json, required: boolean): Field {
  const title = stringOf(property.title);
  const description = stringOf(property.description);
  const base = {
    name,
    label: shownText(title !== undefined && title.trim() !== '' ? title : name),
    ...(description !== undefined && description.trim() !== '' && { description: shownText(description) }),
    required,
  };
  const type = property.type;
  if (type === 'boolean') {
    const fallback = property.default;
    return { ...base, kind: 'boolean', ...(typeof fallback === 'boolean' && { default: fallback }) };
  }
  if (type === 'number' || type === 'integer') {
    return {
      ...base,
      kind: type,
      ...optionalNumber('minimum', property.minimum),
      ...optionalNumber('maximum', property.maximum),
      ...optionalNumber('default', property.default),
    };
  }
  if (type === 'array') {
    const items = isObject(property.items) ? property.items : {};
    const fallback = stringsOf(property.default);
    return {
      ...base,
      kind: 'choices',
      options: optionsOf(items.anyOf, items.enum, undefined),
      ...optionalNumber('minItems', property.minItems),
      ...optionalNumber('maxItems', property.maxItems),
      ...(fallback && { default: fallback }),
    };
  }
  const fallback = stringOf(property.default);
  if (Array.isArray(property.oneOf) || Array.isArray(property.enum)) {
    return {
      ...base,
      kind: 'choice',
      options: optionsOf(property.oneOf, property.enum, property.enumNames),
      ...(fallback !== undefined && { default: fallback }),
    };
  }
  const format = stringOf(property.format);
  return {
    ...base,
    kind: 'string',
    ...optionalNumber('minLength', property.minLength),
    ...optionalNumber('maxLength', property.maxLength),
    ...(format !== undefined && { format }),
    ...(fallback !== undefined && { default: fallback }),
  };
}

function optionalNumber<K extends string>(key: K, value: unknown): { [P in K]?: number } {
  const number = numberOf(value);
  return (number === undefined ? {} : { [key]: number }) as { [P in K]?: number };
}

/** Titled options (`oneOf`/`anyOf` of `{const, title}`), else `enum` with its 2025-06-18 `enumNames`. */
function optionsOf(titled: unknown, values: unknown, names: unknown): FieldOption[] {
  if (Array.isArray(titled)) {
    return titled.flatMap((option) =>
      isObject(option) && typeof option.const === 'string'
        ? [{ value: option.const, title: shownText(stringOf(option.title) ?? option.const) }]
        : [],
    );
  }
  const labels = stringsOf(names);
  return (stringsOf(values) ?? []).map((value, i) => ({ value, title: shownText(labels?.[i] ?? value) }));
}

/** What a field accepts, in a few words: `integer, 1–10`, `email`, `yes or no`. */
export function fieldHint(field: Field): string {
  const hints: string[] = [];
  switch (field.kind) {
    case 'string':
      if (field.format !== undefined) hints.push(shownText(field.format));
      if (field.minLength !== undefined || field.maxLength !== undefined) {
        hints.push(`${range(field.minLength, field.maxLength)} characters`);
      }
      break;
    case 'number':
    case 'integer':
      hints.push(field.kind);
      if (field.minimum !== undefined || field.maximum !== undefined) hints.push(range(field.minimum, field.maximum));
      break;
    case 'boolean':
      hints.push('y or n');
      break;
    case 'choice':
      hints.push('one: its number or value');
      break;
    case 'choices':
      hints.push('any: numbers or values, comma-separated');
      if (field.minItems !== undefined || field.maxItems !== undefined) {
        hints.push(`${range(field.minItems, field.maxItems)} of them`);
      }
      break;
  }
  hints.push(field.required ? 'required' : 'optional');
  return hints.join(', ');
}

function range(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${min}` : `${min}–${max}`;
  return min !== undefined ? `at least ${min}` : `at most ${max}`;
}

/**
 * The numbered option lines of an enum field (at most MAX_LISTED_OPTIONS, then
 * how many more there are), or none for other fields.
 */
export function optionLines(field: Field): string[] {
  if (field.kind !== 'choice' && field.kind !== 'choices') return [];
  const listed = field.options.slice(0, MAX_LISTED_OPTIONS).map((option, i) => {
    const value = shownText(option.value);
    return option.title === value ? `${i + 1}) ${value}` : `${i + 1}) ${option.title} (${value})`;
  });
  const more = field.options.length - MAX_LISTED_OPTIONS;
  if (more > 0) listed.push(`… and ${more} more, not numbered: type the value`);
  return listed;
}

/** The text put on the prompt line for the user to keep or edit: the field's default. */
export function prefill(field: Field): string {
  switch (field.kind) {
    case 'boolean':
      return field.default === undefined ? '' : field.default ? 'y' : 'n';
    case 'number':
    case 'integer':
      return field.default === undefined ? '' : String(field.default);
    case 'choices':
      return field.default?.join(', ') ?? '';
    default:
      return field.default ?? '';
  }
}

/**
 * Reads what the user typed for `field`: the value to send, nothing (an
 * optional field left empty), or why it is refused. The checks are the ones
 * the client applies to the answer before sending it (required, type, options,
 * lengths, ranges), plus the string formats of 2025-06-18 (`email`, `uri`,
 * `date`, `date-time`), so a refused answer is asked again here rather than
 * failing the whole form later.
 */
export function readField(field: Field, typed: string): Reading {
  const input = field.kind === 'string' ? typed : typed.trim();
  if (input === '') return field.required ? refuse('an answer is required') : { ok: true, value: undefined };
  switch (field.kind) {
    case 'string':
      return readString(field, input);
    case 'number':
    case 'integer':
      return readNumber(field, input);
    case 'boolean':
      return readBoolean(input);
    case 'choice': {
      const option = pick(field.options, input);
      return option === undefined ? refuse(`not one of the options: ${JSON.stringify(input)}`) : accept(option.value);
    }
    case 'choices':
      return readChoices(field, input);
  }
}

const refuse = (problem: string): Reading => ({ ok: false, problem });
const accept = (value: FieldValue): Reading => ({ ok: true, value });

function readString(field: Extract<Field, { kind: 'string' }>, input: string): Reading {
  const length = [...input].length;
  if (field.minLength !== undefined && length < field.minLength) {
    return refuse(`at least ${field.minLength} characters, got ${length}`);
  }
  if (field.maxLength !== undefined && length > field.maxLength) {
    return refuse(`at most ${field.maxLength} characters, got ${length}`);
  }
  const problem = field.format === undefined ? undefined : formatProblem(field.format, input);
  return problem === undefined ? accept(input) : refuse(problem);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Why `input` is not a `format` value, or undefined when it is (or the format is unknown: a hint only). */
export function formatProblem(format: string, input: string): string | undefined {
  switch (format) {
    case 'email':
      return EMAIL.test(input) ? undefined : 'not an email address (name@example.com)';
    case 'uri':
      return URL.canParse(input) && /^[a-z][a-z0-9+.-]*:/i.test(input) ? undefined : 'not a URI (https://…)';
    case 'date':
      return validDate(input) ? undefined : 'not a date (YYYY-MM-DD)';
    case 'date-time': {
      const match = DATE_TIME.exec(input);
      const ok =
        match !== null &&
        validDate(match[1] ?? '') &&
        Number(match[2]) < 24 &&
        Number(match[3]) < 60 &&
        Number(match[4]) < 61;
      return ok ? undefined : 'not a date and time (YYYY-MM-DDTHH:MM:SSZ)';
    }
    default:
      return undefined;
  }
}

function validDate(input: string): boolean {
  const match = DATE.exec(input);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function readNumber(field: Extract<Field, { kind: 'number' | 'integer' }>, input: string): Reading {
  // Number('') is 0 and Number('0x10') is 16: only plain decimal notation counts.
  const value = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(input) ? Number(input) : Number.NaN;
  if (!Number.isFinite(value)) return refuse(`not a number: ${JSON.stringify(input)}`);
  if (field.kind === 'integer' && !Number.isInteger(value)) return refuse(`not a whole number: ${input}`);
  if (field.minimum !== undefined && value < field.minimum) return refuse(`at least ${field.minimum}`);
  if (field.maximum !== undefined && value > field.maximum) return refuse(`at most ${field.maximum}`);
  return accept(value);
}

const YES = new Set(['y', 'yes', 'true']);
const NO = new Set(['n', 'no', 'false']);

function readBoolean(input: string): Reading {
  const word = input.toLowerCase();
  if (YES.has(word)) return accept(true);
  if (NO.has(word)) return accept(false);
  return refuse('answer y or n');
}

/** An option by its number in the list, its exact value, or its title (any case). */
function pick(options: readonly FieldOption[], input: string): FieldOption | undefined {
  if (/^\d+$/.test(input)) {
    const index = Number(input) - 1;
    if (index >= 0 && index < Math.min(options.length, MAX_LISTED_OPTIONS)) return options[index];
  }
  const lower = input.toLowerCase();
  return (
    options.find((option) => option.value === input) ?? options.find((option) => option.title.toLowerCase() === lower)
  );
}

function readChoices(field: Extract<Field, { kind: 'choices' }>, input: string): Reading {
  const picked: string[] = [];
  for (const part of input.split(',').map((item) => item.trim())) {
    if (part === '') continue;
    const option = pick(field.options, part);
    if (option === undefined) return refuse(`not one of the options: ${JSON.stringify(part)}`);
    if (!picked.includes(option.value)) picked.push(option.value);
  }
  if (field.minItems !== undefined && picked.length < field.minItems) {
    return refuse(`choose at least ${field.minItems}`);
  }
  if (field.maxItems !== undefined && picked.length > field.maxItems) {
    return refuse(`choose at most ${field.maxItems}`);
  }
  return accept(picked);
}

/** A value as the summary before sending shows it. */
export function shownValue(value: FieldValue): string {
  return shownText(Array.isArray(value) ? value.join(', ') : typeof value === 'string' ? value : String(value));
}
