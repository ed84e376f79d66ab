import type { Schema } from '@cfworker/json-schema';

/**
 * The keywords through which the validator applies a subschema, and whether
 * that subschema sees a part of the value (an item, a member, a property name:
 * `true`) or the value itself (`false`). `items` and the lists (`allOf`...)
 * hold one subschema or several; the maps below hold one per key.
 */
const APPLICATORS: Readonly<Record<string, boolean>> = {
  not: false,
  if: false,
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's keyword in a plain object nothing awaits
  then: false,
  else: false,
  allOf: false,
  anyOf: false,
  oneOf: false,
  items: true,
  prefixItems: true,
  additionalItems: true,
  contains: true,
  unevaluatedItems: true,
  additionalProperties: true,
  unevaluatedProperties: true,
  propertyNames: true,
};
const MAP_APPLICATORS: Readonly<Record<string, boolean>> = {
  properties: true,
  patternProperties: true,
  dependentSchemas: false,
  // Its values are subschemas or lists of property names; only the subschemas apply.
  dependencies: false,
};

/** A subschema on the current path of the walk. */
interface Step {
  readonly schema: Schema;
  /** What the validator applies from here: each subschema, and whether it descends into the value. */
  readonly applied: readonly (readonly [Schema, boolean])[];
  next: number;
  /** Visits under this subschema so far, itself included. */
  visits: number;
  /** The highest step (lowest index) a `$ref` under this subschema loops back to: its own index when none. */
  loopsTo: number;
  /** How many of the steps down to here descend into the value. */
  readonly descents: number;
}

/**
 * How many subschemas one validation against `root` visits for one value, or
 * why it could take too much work. Before any value is checked, the schema is
 * expanded the way the validator walks it: each subschema applied, each `$ref`
 * (`lookup`, from `dereference`) followed to its target, counting the object
 * subschemas (true and false are free). A `$ref` reached twice counts twice, as
 * the validator walks it twice: `$ref`s fanning out through `allOf` or `anyOf`
 * over `$defs` multiply, and a small schema may expand past any bound (24
 * levels of two `$ref`s are 2^24 visits). A `$ref` back to a subschema it is
 * inside (a recursive schema: a tree whose children are trees) counts once: it
 * recurses only as deep as the value it checks (the validation's steps bound it).
 * Unless it loops without descending into the value (`{ "$ref": "#" }`, an
 * `allOf` of itself): that recursion never ends, so the schema is refused too.
 * Past `maxVisits` (`limits.maxSchemaNodes`) the schema is refused; the walk
 * stops there, so it takes at most `maxVisits` steps. Iterative: a chain of
 * `$ref`s nests as deep as the schema is large. Also returns every object
 * subschema the validator may apply (`subschemas`), each once.
 */
export function expand(
  root: Schema,
  lookup: Readonly<Record<string, Schema | boolean>>,
  maxVisits: number,
): { readonly visits: number; readonly subschemas: ReadonlySet<Schema> } | { readonly reason: string } {
  const anchors = Object.values(lookup).filter(
    (schema): schema is Schema => isSchema(schema) && !!schema.$recursiveAnchor,
  );
  /** Visits under a subschema whose `$ref`s loop back only within it: the same wherever it is reached. */
  const settled = new Map<Schema, number>();
  const indexOf = new Map<Schema, number>();
  const subschemas = new Set<Schema>();
  const path: Step[] = [];
  const tooMany = { reason: `expands to more than ${maxVisits} subschemas through $ref (limits.maxSchemaNodes)` };
  const enter = (schema: Schema, descents: number) => {
    indexOf.set(schema, path.length);
    subschemas.add(schema);
    path.push({
      schema,
      applied: applied(schema, lookup, anchors),
      next: 0,
      visits: 1,
      loopsTo: path.length,
      descents,
    });
  };
  let total = 1;
  enter(root, 0);
  for (let step = path.at(-1); step; step = path.at(-1)) {
    const edge = step.applied[step.next++];
    if (!edge) {
      path.pop();
      indexOf.delete(step.schema);
      if (step.loopsTo >= path.length) settled.set(step.schema, step.visits);
      const parent = path.at(-1);
      if (parent) {
        parent.visits += step.visits;
        parent.loopsTo = Math.min(parent.loopsTo, step.loopsTo);
      }
      continue;
    }
    const [child, descends] = edge;
    const descents = step.descents + (descends ? 1 : 0);
    const loop = indexOf.get(child);
    let visits = settled.get(child);
    if (loop !== undefined) {
      if (path[loop]?.descents === descents)
        return { reason: 'a $ref loop applies a subschema to the same value forever' };
      step.loopsTo = Math.min(step.loopsTo, loop);
      visits = 1;
    }
    if (visits === undefined) {
      if (++total > maxVisits) return tooMany;
      enter(child, descents);
      continue;
    }
    step.visits += visits;
    total += visits;
    if (total > maxVisits) return tooMany;
  }
  return { visits: total, subschemas };
}

/** The object subschemas the validator applies from `schema`, each with whether it descends into the value. */
function applied(
  schema: Schema,
  lookup: Readonly<Record<string, Schema | boolean>>,
  anchors: readonly Schema[],
): (readonly [Schema, boolean])[] {
  const found: (readonly [Schema, boolean])[] = [];
  const add = (value: unknown, descends: boolean) => {
    for (const child of Array.isArray(value) ? value : [value]) if (isSchema(child)) found.push([child, descends]);
  };
  if (schema.__absolute_ref__ !== undefined) add(lookup[schema.__absolute_ref__], false);
  // 2019-09's $recursiveRef goes to the outermost $recursiveAnchor on the way in: any of them, to be safe.
  if (schema.__absolute_recursive_ref__ !== undefined)
    add([lookup[schema.__absolute_recursive_ref__], ...anchors], false);
  for (const [keyword, descends] of Object.entries(APPLICATORS)) add(schema[keyword], descends);
  for (const [keyword, descends] of Object.entries(MAP_APPLICATORS)) {
    const map: unknown = schema[keyword];
    if (isSchema(map)) for (const child of Object.values(map)) add(child, descends);
  }
  return found;
}

/** Whether `value` is an object subschema (not true, false, a list or a primitive). */
function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
