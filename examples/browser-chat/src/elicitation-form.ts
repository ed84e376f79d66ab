import type { ElicitRequestFormParams, ElicitResult } from '@mcp/core';
import type { PendingElicitation } from '@mcp/core/connections';
import { describeError, el, transcript } from './dom.js';

type Option = { const: string; title: string };

/**
 * One field of the form a server asks for, as far as this form reads it: the
 * spec's flat subset of JSON Schema (strings, numbers, booleans, single and
 * multiple choice). The client has already checked the shape.
 */
interface Field {
  type: 'string' | 'number' | 'integer' | 'boolean' | 'array';
  title?: string;
  description?: string;
  default?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  enum?: string[];
  enumNames?: string[];
  oneOf?: Option[];
  items?: { enum?: string[]; anyOf?: Option[] };
}
type Value = NonNullable<ElicitResult['content']>[string];

/** The choices of an enum field as `[value, label]`, or undefined for a field without choices. */
function choicesOf(field: Field): Array<[string, string]> | undefined {
  const pairs = (options: Option[] | undefined) =>
    options?.map(({ const: value, title }): [string, string] => [value, title]);
  if (field.type === 'array') return pairs(field.items?.anyOf) ?? field.items?.enum?.map((value) => [value, value]);
  if (field.type !== 'string') return undefined;
  return pairs(field.oneOf) ?? field.enum?.map((value, i) => [value, field.enumNames?.[i] ?? value]);
}

/** `format` hints that map onto an `<input type>`; anything else is plain text. */
const INPUT_TYPES: Record<string, string> = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' };

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * An RFC 3339 date-time (`2026-03-01T09:30:00Z`, any offset) as a `datetime-local` value, in the user's
 * time zone (the control takes no offset, and would drop the value whole); empty if it does not parse.
 */
function toLocalInput(value: unknown): string {
  const date = new Date(String(value));
  if (Number.isNaN(date.getTime())) return '';
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return `${day}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** A `datetime-local` value (the user's time zone, no offset) as RFC 3339 in UTC, as `date-time` requires. */
const fromLocalInput = (value: string): string => new Date(value).toISOString();

/** The control for one field, named after its key, with the schema's bounds as HTML constraints. */
function controlFor(key: string, field: Field, required: boolean): HTMLElement {
  const choices = choicesOf(field);
  if (choices !== undefined) {
    const multiple = field.type === 'array';
    const select = el('select', { name: key, required, multiple });
    if (!multiple) select.append(el('option', { value: '' }, required ? 'Choose…' : '(none)'));
    for (const [value, label] of choices) select.append(el('option', { value }, label));
    const initial = field.default;
    for (const option of select.options) {
      option.selected = Array.isArray(initial) ? initial.includes(option.value) : option.value === initial;
    }
    return select;
  }
  if (field.type === 'boolean') {
    const box = el('input', { name: key, type: 'checkbox' });
    box.checked = field.default === true;
    return box;
  }
  const input = el('input', { name: key, required });
  if (field.type === 'number' || field.type === 'integer') {
    input.type = 'number';
    input.step = field.type === 'integer' ? '1' : 'any';
    if (field.minimum !== undefined) input.min = String(field.minimum);
    if (field.maximum !== undefined) input.max = String(field.maximum);
  } else if (field.type === 'string') {
    input.type = INPUT_TYPES[field.format ?? ''] ?? 'text';
    if (field.format === 'date-time') input.step = '1'; // seconds, too
    if (field.minLength !== undefined) input.minLength = field.minLength;
    if (field.maxLength !== undefined) input.maxLength = field.maxLength;
  }
  if (field.default !== undefined) {
    input.value = field.format === 'date-time' ? toLocalInput(field.default) : String(field.default);
  }
  return input;
}

/** The value a control holds, as the schema's type, or undefined when an optional field is left empty. */
function readValue(control: HTMLElement, field: Field): Value | undefined {
  if (control instanceof HTMLSelectElement) {
    if (control.multiple) return [...control.selectedOptions].map((option) => option.value);
    return control.value === '' ? undefined : control.value;
  }
  const input = control as HTMLInputElement;
  if (field.type === 'boolean') return input.checked;
  if (input.value === '') return undefined;
  if (field.type === 'string' && field.format === 'date-time') return fromLocalInput(input.value);
  return field.type === 'number' || field.type === 'integer' ? Number(input.value) : input.value;
}

/**
 * Shows the server's question as a form built from its `requestedSchema`, and
 * answers the waiting request with the user's choice: `respond` with the
 * values, `decline`, or `cancel`. The browser checks required fields and
 * bounds before Submit; the connection checks the answer against the schema
 * again, and an answer that does not fit leaves the form open with the reason.
 * If the server gives the request up first (`signal`), the form closes.
 */
export function askUser(request: PendingElicitation & { params: ElicitRequestFormParams }, server: string): void {
  const { properties, required = [] } = request.params.requestedSchema;
  const controls = Object.entries(properties as Record<string, Field>).map(([key, field]) => {
    const control = controlFor(key, field, required.includes(key));
    const label = el(
      'label',
      {},
      el('span', {}, field.title ?? key, required.includes(key) ? ' *' : ''),
      control,
      field.description !== undefined && el('small', {}, field.description),
    );
    return { key, field, control, label };
  });
  const status = el('p', { class: 'status' });
  const form = el(
    'form',
    { class: 'entry elicitation', 'aria-label': 'The server asks' },
    el('h3', {}, `${server} asks`),
    el('p', {}, request.params.message),
    ...controls.map(({ label }) => label),
    el(
      'div',
      { class: 'actions' },
      el('button', { type: 'submit', value: 'accept' }, 'Submit'),
      el('button', { type: 'button', value: 'decline', formnovalidate: true }, 'Decline'),
      el('button', { type: 'button', value: 'cancel', formnovalidate: true }, 'Cancel'),
    ),
    status,
  );
  transcript.add(form);

  const close = (note: string) => {
    request.signal.removeEventListener('abort', onAbort);
    for (const element of form.elements) (element as HTMLInputElement).disabled = true;
    status.textContent = note;
  };
  const onAbort = () => close('Withdrawn.');
  request.signal.addEventListener('abort', onAbort, { once: true });
  if (request.signal.aborted) onAbort();

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const content: Record<string, Value> = {};
    for (const { key, field, control } of controls) {
      const value = readValue(control, field);
      if (value !== undefined) content[key] = value;
    }
    try {
      if (request.respond(content)) close('Sent.');
    } catch (error) {
      // The answer does not fit the schema: the request still waits, so the user can correct it.
      status.textContent = describeError(error);
    }
  });
  form.addEventListener('click', (event) => {
    const button = event.target;
    if (!(button instanceof HTMLButtonElement) || button.type !== 'button') return;
    if (button.value === 'decline' ? request.decline() : request.cancel()) close(`You chose ${button.value}.`);
  });
}
