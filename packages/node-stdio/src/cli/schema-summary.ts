/**
 * Short, human-readable summaries of a tool's JSON Schemas for the terminal:
 * `text: string*, count: integer = 3`. Schemas come from the server and may be
 * any JSON, so every field is checked before it is used.
 */

type Json = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Enums longer than this show their first values and `…`. */
const MAX_ENUM_VALUES = 8;
/** Nested schemas deeper than this are summarised as `…`. */
const MAX_DEPTH = 3;

/**
 * The properties of an object schema as `name: type` pairs, required ones marked
 * `*` and defaults shown as `= value`, in the schema's own order.
 */
export function summariseProperties(schema: unknown): string {
  if (!isObject(schema) || !isObject(schema.properties)) return '';
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((n) => typeof n === 'string') : []);
  return Object.entries(schema.properties)
    .map(([name, property]) => {
      const mark = required.has(name) ? '*' : '';
      const fallback = isObject(property) && 'default' in property ? ` = ${JSON.stringify(property.default)}` : '';
      return `${name}: ${typeName(property)}${mark}${fallback}`;
    })
    .join(', ');
}

/** The type a JSON Schema describes, in TypeScript-like notation: `string[]`, `"a"|"b"`, `number|null`. */
export function typeName(schema: unknown, depth = 0): string {
  if (schema === true || !isObject(schema)) return 'any';
  if (depth > MAX_DEPTH) return '…';
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return enumName(schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union)) return unique(union.map((member) => typeName(member, depth + 1))).join('|');
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop() || 'any';
  if (Array.isArray(schema.type)) {
    return unique(schema.type.map((type) => (typeof type === 'string' ? simpleType(schema, type, depth) : 'any'))).join(
      '|',
    );
  }
  if (typeof schema.type === 'string') return simpleType(schema, schema.type, depth);
  if (isObject(schema.properties)) return 'object';
  return 'any';
}

function simpleType(schema: Json, type: string, depth: number): string {
  if (type !== 'array') return type;
  const item = typeName(schema.items, depth + 1);
  return /[|]/.test(item) ? `(${item})[]` : `${item}[]`;
}

function enumName(values: readonly unknown[]): string {
  const shown = values.slice(0, MAX_ENUM_VALUES).map((value) => JSON.stringify(value));
  if (values.length > MAX_ENUM_VALUES) shown.push('…');
  return shown.join('|');
}

function unique(names: readonly string[]): string[] {
  return [...new Set(names)];
}
