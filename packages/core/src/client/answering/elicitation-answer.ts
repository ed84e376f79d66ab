import type { ElicitRequestedSchema, ElicitResult, PrimitiveSchemaDefinition } from '../../protocol/elicitation.js';

/**
 * The first way a form answer breaks the `requestedSchema` it answers, or
 * undefined when it keeps it (all revisions with elicitation: the client should
 * check answers before sending them). Only `accept` carries content. The
 * restricted schema is flat and closed, so the check is written out here, not
 * borrowed from a JSON Schema library: every required field present, no field
 * the form did not ask for, and each value of its field's type, within its
 * enum or options, length, range and item counts. `format` is a rendering
 * hint and is not checked.
 */
export function elicitationAnswerBreach(schema: ElicitRequestedSchema, answer: ElicitResult): string | undefined {
  if (answer.action !== 'accept') return undefined;
  const content = answer.content ?? {};
  const missing = (schema.required ?? []).find((name) => !Object.hasOwn(content, name));
  if (missing !== undefined) return `content.${missing}: required, and missing`;
  for (const [name, value] of Object.entries(content)) {
    const field = Object.hasOwn(schema.properties, name) ? schema.properties[name] : undefined;
    const problem = field ? fieldBreach(field, value) : 'not a field of the form';
    if (problem) return `content.${name}: ${problem}`;
  }
  return undefined;
}

/** Why `value` does not fit one field, or undefined when it does. */
function fieldBreach(field: PrimitiveSchemaDefinition, value: unknown): string | undefined {
  switch (field.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be a boolean';
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (field.type === 'integer' && !Number.isInteger(value)) return 'must be an integer';
      return range(value, field.minimum, field.maximum, '');
    }
    case 'string': {
      if (typeof value !== 'string') return 'must be a string';
      const { minLength, maxLength, ...choice } = field as StringField;
      const choices = optionsOf(choice);
      if (choices) return choices.includes(value) ? undefined : 'must be one of the options offered';
      return range([...value].length, minLength, maxLength, ' characters');
    }
    default: {
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
        return 'must be a list of strings';
      }
      const choices = optionsOf(field.items as Options) ?? [];
      if (!value.every((item) => choices.includes(item))) return 'must hold only options offered';
      return range(value.length, field.minItems, field.maxItems, ' items');
    }
  }
}

/** The choices of an enum field or of a multi-select's items: `enum`, or the `const` of each titled option. */
interface Options {
  readonly enum?: readonly string[];
  readonly oneOf?: readonly { readonly const: string }[];
  readonly anyOf?: readonly { readonly const: string }[];
}

interface StringField extends Options {
  readonly minLength?: number;
  readonly maxLength?: number;
}

function optionsOf({ enum: listed, oneOf, anyOf }: Options): readonly string[] | undefined {
  return listed ?? (oneOf ?? anyOf)?.map((option) => option.const);
}

/** Why `count` falls outside [min, max], or undefined. */
function range(count: number, min: number | undefined, max: number | undefined, unit: string): string | undefined {
  if (min !== undefined && count < min) return `must be at least ${min}${unit}`;
  if (max !== undefined && count > max) return `must be at most ${max}${unit}`;
  return undefined;
}
