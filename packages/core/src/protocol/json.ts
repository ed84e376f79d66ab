import * as v from 'valibot';

/** A plain JSON object: not `null`, not an array. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Any JSON object, returned as the same reference. Used where the spec carries
 * open-ended data (JSON Schemas, `metadata`, capability settings) that must reach
 * the caller verbatim, never stripped or copied field by field.
 */
export const JsonObjectSchema = v.custom<{ [key: string]: unknown }>(
  isJsonObject,
  'Invalid type: Expected JSON object',
);

/** The type {@link JsonObjectSchema} accepts. */
export type JsonObject = v.InferOutput<typeof JsonObjectSchema>;

/** A JSON Schema that must describe an object (`type: "object"` at the root); every other keyword is kept. */
export const ObjectJsonSchemaSchema = v.looseObject({ $schema: v.optional(v.string()), type: v.literal('object') });

// Standard alphabet, optional padding. A plain character-class loop: no backtracking
// per character, so multi-megabyte blobs validate in linear time without regexp stack growth.
const BASE64 = /^[A-Za-z\d+/]*={0,2}$/;

/** A base64 string (RFC 4648 §4; padding may be omitted), as `data` and `blob` fields carry. */
export const Base64Schema = v.pipe(
  v.string(),
  v.check((text) => text.length % 4 !== 1 && BASE64.test(text), 'Invalid base64'),
);

// Fails every input; picked for non-objects (arrays included) where a tagged object is due.
const NotAnObjectSchema = v.never('Invalid type: Expected object');

/**
 * A schema that validates an object with the member of `map` named by its `key`
 * field, or with `fallback` when the tag is unknown. Unlike a union, the issues
 * come from the one schema that applies, so their paths name the bad field
 * (`content.1.data`) instead of "no union option matched".
 */
/* @__NO_SIDE_EFFECTS__ */
export function byTag<const TMap extends Record<string, v.GenericSchema>, const TFallback extends v.GenericSchema>(
  key: string,
  map: TMap,
  fallback: TFallback,
) {
  return v.lazy((input): TMap[keyof TMap] | TFallback | typeof NotAnObjectSchema => {
    if (!isJsonObject(input)) return NotAnObjectSchema;
    const tag = input[key];
    return typeof tag === 'string' && Object.hasOwn(map, tag) ? (map[tag] as TMap[keyof TMap]) : fallback;
  });
}
