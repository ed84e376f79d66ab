/**
 * Values an unattended app fills in from a JSON Schema: what a user who accepts
 * every suggestion would send. Only same-document `$ref`s (`#/...`) are followed;
 * a network `$ref` is never fetched (2026-07-28 server/tools, JSON Schema usage:
 * implementations MUST NOT dereference network URIs automatically, SEP-2106).
 */

/** @typedef {Record<string, unknown>} JsonObject */

/** @param {unknown} value @returns {value is JsonObject} */
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Resolves a `#/a/b` pointer against the root schema; anything else stays unresolved. */
function resolveLocal(/** @type {JsonObject} */ root, /** @type {JsonObject} */ schema) {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  /** @type {unknown} */
  let target = root;
  for (const part of ref.slice(2).split('/')) {
    const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
    target = isObject(target) ? target[key] : undefined;
  }
  return isObject(target) ? { ...target, ...schema, $ref: undefined } : schema;
}

/** The first type named by `type`, which may be a list. */
function firstType(/** @type {JsonObject} */ schema) {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  return typeof type === 'string' ? type : undefined;
}

/**
 * One value for `schema`: its `default`, `const`, first `enum` member or first
 * example, else a plain placeholder of its type. `depth` stops recursive schemas.
 */
export function sampleValue(/** @type {JsonObject} */ root, /** @type {unknown} */ input, depth = 0) {
  if (!isObject(input) || depth > 8) return null;
  const schema = resolveLocal(root, input);
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  const choice = [schema.anyOf, schema.oneOf].find((list) => Array.isArray(list) && list.length > 0);
  if (Array.isArray(choice)) return sampleValue(root, choice[0], depth + 1);
  switch (firstType(schema)) {
    case 'string':
      return 'example';
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'null':
      return null;
    default:
      return sampleObject(root, schema, depth + 1);
  }
}

/** An object with every required property filled, plus every optional one that has a default. */
export function sampleObject(/** @type {JsonObject} */ root, /** @type {JsonObject} */ schema, depth = 0) {
  /** @type {JsonObject} */
  const out = {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  for (const [name, property] of Object.entries(properties)) {
    const hasDefault = isObject(property) && 'default' in property;
    if (required.has(name) || hasDefault) out[name] = sampleValue(root, property, depth);
  }
  return out;
}

/** Arguments for a tool from its `inputSchema`. */
export const sampleArguments = (/** @type {JsonObject} */ inputSchema) => sampleObject(inputSchema, inputSchema);

/**
 * The content of an accepted elicitation form: each field's `default`; a required
 * field without one gets a placeholder (2025-11-25 client/elicitation, SEP-1034).
 */
export function formDefaults(/** @type {object} */ requestedSchema) {
  const schema = /** @type {JsonObject} */ (requestedSchema);
  return /** @type {Record<string, string | number | boolean | string[]>} */ (sampleObject(schema, schema));
}
