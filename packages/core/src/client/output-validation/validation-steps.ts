import type { Schema } from '@cfworker/json-schema';
import { LimitError } from '../../errors/limit-error.js';

/**
 * Counts the work of each validation against a compiled schema and stops it
 * past `maxSteps` (`limits.maxValidationSteps`) with a `LimitError`; the
 * validator's caller turns it into an `OutputValidationError`. The validator is
 * synchronous, so while it runs nothing else does: its work must be bounded
 * whatever the schema and the value. A step is one subschema applied to one
 * part of the value (the validator reads `$recursiveAnchor` of each subschema
 * it applies, once: `subschemas`, from `expand`, each get a getter that counts
 * and returns what the schema holds),
 * so `allOf` of thousands of subschemas over each item, or a 2019-09
 * `$recursiveRef` that loops back twice into the same part, stop at the bound.
 * `uniqueItems` compares every item with every other within one step: when a
 * subschema has it, each array in the value costs a step per pair compared,
 * charged before the validation starts. Returns what to call before each
 * validation of `value`. Not bounded: the work inside one step, which grows
 * with the object the subschema is applied to (the validator lists its
 * members each time) and with the patterns it tests each member against.
 */
export function meter(subschemas: ReadonlySet<Schema>, maxSteps: number): (value: unknown) => void {
  let steps = 0;
  const step = (count: number) => {
    steps += count;
    if (steps > maxSteps) {
      throw new LimitError(
        'limits.maxValidationSteps',
        maxSteps,
        `validating structuredContent takes more than ${maxSteps} steps (subschemas applied to parts of the value, pairs of items compared for uniqueItems)`,
      );
    }
  };
  let unique = false;
  for (const schema of subschemas) {
    unique ||= schema.uniqueItems === true;
    const anchor = schema.$recursiveAnchor;
    Object.defineProperty(schema, '$recursiveAnchor', {
      get: () => {
        step(1);
        return anchor;
      },
    });
  }
  return (value) => {
    steps = 0;
    if (unique) step(pairs(value));
  };
}

/** The ordered pairs of items `uniqueItems` compares in each array of `value`. Iterative: a value may nest deep. */
function pairs(value: unknown): number {
  let count = 0;
  const pending = [value];
  while (pending.length > 0) {
    const part = pending.pop();
    if (typeof part !== 'object' || part === null) continue;
    if (Array.isArray(part)) count += part.length * (part.length - 1);
    for (const child of Object.values(part)) pending.push(child);
  }
  return count;
}
