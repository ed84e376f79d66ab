import type { InstanceType, Schema } from '@cfworker/json-schema';

/** JSON Schema's instance types, the values `type` may name. */
const TYPES: InstanceType[] = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];
/** Where a subschema goes: this meta-schema itself. */
const SUBSCHEMA: Schema = { $ref: '#' };
const SUBSCHEMA_LIST: Schema = { type: 'array', minItems: 1, items: SUBSCHEMA };
const SUBSCHEMA_MAP: Schema = { type: 'object', additionalProperties: SUBSCHEMA };
const COUNT: Schema = { type: 'integer', minimum: 0 };
const BOUND: Schema = { type: ['number', 'boolean'] };
const STRINGS: Schema = { type: 'array', items: { type: 'string' } };

/**
 * What an output schema must look like for the client to validate against it:
 * each keyword the validator reads holds a value of the kind that keyword takes
 * (drafts 4 to 2020-12 read alike: `items` may be one schema or a list,
 * `exclusiveMinimum` a number or a draft-4 boolean), and every regular
 * expression compiles. Unknown keywords are allowed, as JSON Schema allows them.
 * Not the official meta-schemas: those are large and would be fetched or
 * bundled; this one holds only what stops a validator from reading a schema.
 */
export const META_SCHEMA: Schema = {
  type: ['object', 'boolean'],
  properties: {
    $schema: { type: 'string' },
    $id: { type: 'string' },
    $ref: { type: 'string' },
    $anchor: { type: 'string' },
    type: { anyOf: [{ enum: TYPES }, { type: 'array', items: { enum: TYPES } }] },
    enum: { type: 'array' },
    required: STRINGS,
    format: { type: 'string' },
    pattern: { type: 'string', format: 'regex' },
    properties: SUBSCHEMA_MAP,
    patternProperties: { ...SUBSCHEMA_MAP, propertyNames: { format: 'regex' } },
    $defs: SUBSCHEMA_MAP,
    definitions: SUBSCHEMA_MAP,
    dependentSchemas: SUBSCHEMA_MAP,
    dependentRequired: { type: 'object', additionalProperties: STRINGS },
    dependencies: { type: 'object', additionalProperties: { anyOf: [SUBSCHEMA, STRINGS] } },
    items: { anyOf: [SUBSCHEMA, SUBSCHEMA_LIST] },
    prefixItems: SUBSCHEMA_LIST,
    allOf: SUBSCHEMA_LIST,
    anyOf: SUBSCHEMA_LIST,
    oneOf: SUBSCHEMA_LIST,
    not: SUBSCHEMA,
    if: SUBSCHEMA,
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's keyword in a plain object nothing awaits
    then: SUBSCHEMA,
    else: SUBSCHEMA,
    contains: SUBSCHEMA,
    propertyNames: SUBSCHEMA,
    additionalItems: SUBSCHEMA,
    additionalProperties: SUBSCHEMA,
    unevaluatedItems: SUBSCHEMA,
    unevaluatedProperties: SUBSCHEMA,
    minimum: { type: 'number' },
    maximum: { type: 'number' },
    exclusiveMinimum: BOUND,
    exclusiveMaximum: BOUND,
    multipleOf: { type: 'number', exclusiveMinimum: 0 },
    minLength: COUNT,
    maxLength: COUNT,
    minItems: COUNT,
    maxItems: COUNT,
    minContains: COUNT,
    maxContains: COUNT,
    minProperties: COUNT,
    maxProperties: COUNT,
    uniqueItems: { type: 'boolean' },
  },
};
