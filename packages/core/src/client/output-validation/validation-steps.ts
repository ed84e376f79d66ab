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
 * charged before the validation starts. And each time the validator lists
 * the members of an object (once per subschema applied to it), each member is
 * a step: the validator is given a copy of the value whose objects count that
 * (`counted`), so `allOf` of thousands of subschemas over one large object
 * stops too. Returns what to call before each validation of `value`: it gives
 * the copy to validate.
 */
export function meter(subschemas: ReadonlySet<Schema>, maxSteps: number): (value: unknown) => unknown {
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
  const members: ProxyHandler<object> = {
    ownKeys: (target) => {
      const keys = Reflect.ownKeys(target);
      step(keys.length);
      return keys;
    },
  };
  return (value) => {
    steps = 0;
    if (unique) step(pairs(value));
    return counted(value, members);
  };
}

/**
 * A copy of `value` whose objects are proxies with `members` as handler, so
 * listing their members is counted; arrays are plain (the validator reads
 * their items by index, each a step already). Iterative: a value may nest deep.
 */
function counted(value: unknown, members: ProxyHandler<object>): unknown {
  const pending: [object, Record<string, unknown>][] = [];
  const copy = (part: unknown): unknown => {
    if (typeof part !== 'object' || part === null) return part;
    const target: Record<string, unknown> = Array.isArray(part) ? ([] as unknown as Record<string, unknown>) : {};
    pending.push([part, target]);
    return Array.isArray(part) ? target : new Proxy(target, members);
  };
  const root = copy(value);
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [source, target] = next;
    for (const [key, child] of Object.entries(source)) {
      // A member named __proto__ is an own member in JSON, not the prototype.
      Object.defineProperty(target, key, { value: copy(child), enumerable: true, writable: true, configurable: true });
    }
  }
  return root;
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
