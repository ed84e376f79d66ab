import type { ElicitRequestFormParams } from '@mcp/core';
import type { PendingElicitation } from '@mcp/core/connections';
import { type FormEvent, useId, useState } from 'react';
import { describeError } from './text.js';

type Option = { readonly const: string; readonly title: string };

/**
 * One field of the form, as far as this form reads it: the spec's flat subset
 * of JSON Schema (strings, numbers, booleans, single and multiple choice). The
 * client has already checked the shape.
 */
interface Field {
  readonly type: 'string' | 'number' | 'integer' | 'boolean' | 'array';
  readonly title?: string;
  readonly description?: string;
  readonly default?: unknown;
  readonly format?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly enum?: readonly string[];
  readonly enumNames?: readonly string[];
  readonly oneOf?: readonly Option[];
  readonly items?: { readonly enum?: readonly string[]; readonly anyOf?: readonly Option[] };
}
type Choice = readonly [value: string, label: string];

/** The choices of a single or multiple choice field, or undefined for a field without them. */
function choicesOf(field: Field): readonly Choice[] | undefined {
  const pairs = (options: readonly Option[] | undefined) =>
    options?.map((option): Choice => [option.const, option.title]);
  if (field.type === 'array') return pairs(field.items?.anyOf) ?? field.items?.enum?.map((value) => [value, value]);
  if (field.type !== 'string') return undefined;
  return pairs(field.oneOf) ?? field.enum?.map((value, i) => [value, field.enumNames?.[i] ?? value]);
}

/** `format` hints that map onto an `<input type>`; anything else is plain text. */
const INPUT_TYPES: Record<string, string> = { email: 'email', uri: 'url', date: 'date' };

/** The control for one field, named after its key, with the schema's bounds as HTML constraints. */
function Control({ id, name, field, required }: { id: string; name: string; field: Field; required: boolean }) {
  const choices = choicesOf(field);
  if (choices !== undefined) {
    const multiple = field.type === 'array';
    const initial = field.default as string | string[] | undefined;
    return (
      <select
        id={id}
        name={name}
        required={required}
        multiple={multiple}
        defaultValue={initial ?? (multiple ? [] : '')}
      >
        {!multiple && <option value="">{required ? 'Choose…' : '(none)'}</option>}
        {choices.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    );
  }
  if (field.type === 'boolean')
    return <input id={id} name={name} type="checkbox" defaultChecked={field.default === true} />;
  if (field.type === 'number' || field.type === 'integer') {
    return (
      <input
        id={id}
        name={name}
        type="number"
        required={required}
        step={field.type === 'integer' ? 1 : 'any'}
        min={field.minimum}
        max={field.maximum}
        defaultValue={field.default as number | undefined}
      />
    );
  }
  return (
    <input
      id={id}
      name={name}
      type={INPUT_TYPES[field.format ?? ''] ?? 'text'}
      required={required}
      minLength={field.minLength}
      maxLength={field.maxLength}
      defaultValue={field.default as string | undefined}
    />
  );
}

/** The value a control holds, as the field's type; undefined for an optional field left empty. */
function readValue(form: HTMLFormElement, name: string, field: Field): unknown {
  const control = form.elements.namedItem(name);
  if (control instanceof HTMLSelectElement) {
    if (control.multiple) return [...control.selectedOptions].map((option) => option.value);
    return control.value === '' ? undefined : control.value;
  }
  const input = control as HTMLInputElement;
  if (field.type === 'boolean') return input.checked;
  if (input.value === '') return undefined;
  return field.type === 'number' || field.type === 'integer' ? Number(input.value) : input.value;
}

/**
 * A server's question as a form built from its `requestedSchema`: text,
 * numbers, checkboxes, single and multiple choice, required fields marked and
 * enforced by the browser. Submit, Decline or Cancel answer the request, which
 * then leaves the server's `pending` (and this form the page). Content the
 * client finds does not fit the schema is refused before it is sent: the error
 * shows here and the form stays, to be corrected.
 */
export function ElicitationForm({
  server,
  request,
}: {
  server: string;
  request: PendingElicitation & { params: ElicitRequestFormParams };
}) {
  const [error, setError] = useState('');
  const formId = useId();
  const { requestedSchema } = request.params;
  const properties = requestedSchema.properties as Record<string, Field>;
  const required = requestedSchema.required ?? [];

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const content: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(properties)) {
      const value = readValue(event.currentTarget, name, field);
      if (value !== undefined) content[name] = value;
    }
    try {
      request.respond(content);
    } catch (refused) {
      setError(describeError(refused));
    }
  };

  return (
    <form className="entry elicitation" aria-label={`${server} asks`} onSubmit={submit}>
      <h3>{server} asks</h3>
      <p>{request.params.message}</p>
      {Object.entries(properties).map(([name, field]) => (
        <label key={name} htmlFor={`${formId}-${name}`}>
          <span>
            {field.title ?? name}
            {required.includes(name) && ' *'}
          </span>
          <Control id={`${formId}-${name}`} name={name} field={field} required={required.includes(name)} />
          {field.description !== undefined && <small>{field.description}</small>}
        </label>
      ))}
      <div className="actions">
        <button type="submit">Submit</button>
        <button type="button" onClick={() => request.decline()}>
          Decline
        </button>
        <button type="button" onClick={() => request.cancel()}>
          Cancel
        </button>
      </div>
      <p className="error" role="alert">
        {error}
      </p>
    </form>
  );
}
