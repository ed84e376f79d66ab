import {
  dereference,
  type Schema,
  type SchemaDraft,
  type ValidationResult,
  Validator,
  validate,
} from '@cfworker/json-schema';
import { jsonExcerpt } from '../../util/excerpt.js';
import { messageOf } from '../../util/message-of.js';
import { DEFAULT_MAX_VALIDATION_STEPS } from '../options.js';
import { expand } from './expansion.js';
import { META_SCHEMA } from './meta-schema.js';
import { nestsQuantifiers } from './nested-quantifiers.js';
import { meter } from './validation-steps.js';

/**
 * How deep an output schema may nest (objects and arrays, the root counting
 * one). Fixed, not an option: validation recurses once per level, and no real
 * tool's output nests 64 objects deep (each object level is two here:
 * `properties`, then the property).
 */
export const MAX_SCHEMA_DEPTH = 128;

/** A server's value named in a reason is cut to this many characters: it may be of any length. */
const SHOWN_CHARS = 120;

/**
 * The dialects the validator speaks, by `$schema` (read without a trailing `#`,
 * `http:` as `https:`). Without `$schema` a schema is 2020-12 (2025-11-25 on,
 * basic § JSON Schema Usage); older servers wrote draft-07 style, which
 * 2020-12 reads the same in all but tuple `items`, and the validator takes both.
 */
const DIALECTS: Readonly<Record<string, SchemaDraft>> = {
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
  'https://json-schema.org/draft/2019-09/schema': '2019-09',
  'https://json-schema.org/draft-07/schema': '7',
  'https://json-schema.org/draft-04/schema': '4',
};

/** An output schema ready to validate against, or why it cannot be used. */
export type CompiledSchema = { readonly validate: (value: unknown) => ValidationResult } | { readonly reason: string };

const metaValidator = new Validator(META_SCHEMA, '2020-12');

/**
 * Prepares a tool's `outputSchema` for validation, or says why it cannot be
 * used: larger than `maxNodes` objects and arrays (`limits.maxSchemaNodes`) or
 * deeper than `MAX_SCHEMA_DEPTH`, checked first, without recursion, so no
 * schema can make the rest slow; a `$schema` dialect the validator does not
 * speak; a keyword holding the wrong kind of value; a `$ref` that does not
 * resolve within the schema. A `$ref` to another document is never fetched
 * (2026-07-28, basic § JSON Schema Usage: no automatic network dereference):
 * it is unresolved. `$ref`s that make one validation visit more than `maxNodes`
 * subschemas for one value (`expand`: fanning out, or looping on the same
 * value), checked once they resolve. Then what the validator would get wrong
 * or could not bound, in the subschemas it applies: a 2020-12 `$dynamicRef`
 * (the validator ignores it, and would pass what the schema refuses), and a
 * `pattern` or `patternProperties` key that repeats a group holding an
 * unbounded quantifier (`nestsQuantifiers`: a regular expression cannot be
 * stopped once it runs). Each validation then takes at most `maxSteps` steps
 * (`meter`, `limits.maxValidationSteps`). The schema is copied first: the
 * validator annotates what it is given, and the app's `Tool` must stay as the
 * server sent it. Server strings in a reason are cut to 120 characters.
 */
export function compileOutputSchema(
  schema: Readonly<Record<string, unknown>>,
  maxNodes: number,
  maxSteps = DEFAULT_MAX_VALIDATION_STEPS,
): CompiledSchema {
  const tooLarge = measure(schema, maxNodes);
  if (tooLarge) return { reason: tooLarge };
  const declared = schema.$schema;
  const dialect =
    declared === undefined
      ? '2020-12'
      : DIALECTS[
          String(declared)
            .replace(/#$/, '')
            .replace(/^http:/, 'https:')
        ];
  if (!dialect) return { reason: `dialect not supported: ${jsonExcerpt(declared, SHOWN_CHARS)}` };
  const meta = metaValidator.validate(schema);
  if (!meta.valid) {
    // The deepest location is the keyword itself; the units above it only say a subschema failed.
    const at = meta.errors.reduce(
      (deepest, unit) => (unit.instanceLocation.length > deepest.length ? unit.instanceLocation : deepest),
      '#',
    );
    return { reason: `${at} holds a value its keyword does not take` };
  }
  try {
    const copy = structuredClone(schema) as Schema;
    const lookup = dereference(copy);
    for (const node of Object.values(lookup) as Schema[]) {
      const target = node.__absolute_ref__ ?? node.__absolute_recursive_ref__;
      if (target !== undefined && !(target in lookup)) {
        return {
          reason: `unresolved $ref ${jsonExcerpt(node.$ref ?? node.$recursiveRef, SHOWN_CHARS)} (never fetched)`,
        };
      }
    }
    const expansion = expand(copy, lookup, maxNodes);
    if ('reason' in expansion) return expansion;
    for (const subschema of expansion.subschemas) {
      if (dialect === '2020-12' && subschema.$dynamicRef !== undefined) {
        return { reason: `$dynamicRef ${jsonExcerpt(subschema.$dynamicRef, SHOWN_CHARS)} is not supported` };
      }
      const patterns = [subschema.pattern, ...Object.keys(subschema.patternProperties ?? {})];
      const slow = patterns.find((pattern) => typeof pattern === 'string' && nestsQuantifiers(pattern));
      if (slow !== undefined)
        return {
          reason: `pattern ${jsonExcerpt(slow, SHOWN_CHARS)} repeats a group holding an unbounded quantifier (it could run for ever)`,
        };
    }
    const start = meter(expansion.subschemas, maxSteps);
    return {
      validate: (value) => validate(start(value), copy, dialect, lookup),
    };
  } catch (error) {
    return { reason: messageOf(error) };
  }
}

/** Why `schema` is too large or too deep to use, walked without recursion; undefined when it is not. */
function measure(schema: unknown, maxNodes: number): string | undefined {
  const pending: [unknown, number][] = [[schema, 1]];
  let nodes = 0;
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, depth] = next;
    if (typeof value !== 'object' || value === null) continue;
    if (++nodes > maxNodes) return `more than ${maxNodes} objects and arrays (limits.maxSchemaNodes)`;
    if (depth > MAX_SCHEMA_DEPTH) return `nested deeper than ${MAX_SCHEMA_DEPTH} levels`;
    for (const child of Object.values(value)) pending.push([child, depth + 1]);
  }
  return undefined;
}
