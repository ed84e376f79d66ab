/**
 * The `x-mcp-header` rules (2026-07-28 §Mcp-Param headers), a module the
 * Session's tool registry loads the first time a listed tool carries an
 * annotation: which annotations of a tool's input schema are valid, and the
 * `Mcp-Param-{name}` headers a call's arguments give. A program whose tools
 * carry none never downloads it.
 */
import { isJsonObject } from '../../protocol/json.js';
import type { Tool } from '../../protocol/tools.js';
import { encodeHeaderValue } from '../eras/header-values.js';

/** One tool parameter mirrored into an `Mcp-Param-{name}` header. */
export interface HeaderParam {
  readonly header: string;
  /** Property keys from the schema root to the value. */
  readonly path: readonly string[];
}

export type HeaderAnnotations =
  | { readonly ok: true; readonly params: readonly HeaderParam[] }
  | { readonly ok: false; readonly reason: string };

/** RFC 9110 token characters. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const ALLOWED_TYPES = new Set(['string', 'integer', 'boolean']);
/**
 * Keywords through which an annotation is unreachable by `properties` alone,
 * by what they hold: one schema, a list of schemas, or a map of named schemas.
 * `items` was a list in draft-07, one schema since 2020-12; both are read.
 */
const ONE_SCHEMA = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
];
const SCHEMA_LIST = ['items', 'prefixItems', 'oneOf', 'anyOf', 'allOf'];
const SCHEMA_MAP = ['$defs', 'definitions', 'patternProperties', 'dependentSchemas'];

type Schema = Readonly<Record<string, unknown>>;

/** A property path as a chain to its parent: a deep schema shares one chain instead of copying arrays. */
interface Path {
  readonly key: string;
  readonly parent: Path | undefined;
}

/** One subschema still to visit, and how it was reached. */
interface Visit {
  readonly schema: Schema;
  readonly path: Path | undefined;
  readonly reachable: boolean;
}

function keysOf(path: Path | undefined): string[] {
  const keys: string[] = [];
  for (let link = path; link; link = link.parent) keys.push(link.key);
  return keys.reverse();
}

/**
 * Reads and checks the `x-mcp-header` annotations of a tool's input schema
 * (2026-07-28, tools § x-mcp-header). A tool with an invalid one must be left
 * out of the list the client exposes; `reason` says why. Each subschema is
 * visited once, without recursion, and at most `maxNodes` of them: a schema
 * built to be slow to walk (deep `not` chains, huge maps) is refused, not walked.
 */
export function headerAnnotations(tool: Tool, maxNodes: number): HeaderAnnotations {
  const params: HeaderParam[] = [];
  const seen = new Set<string>();
  const pending: Visit[] = [{ schema: tool.inputSchema as Schema, path: undefined, reachable: true }];
  let found = 1;
  for (let visit = pending.pop(); visit; visit = pending.pop()) {
    const { schema, path, reachable } = visit;
    if ('x-mcp-header' in schema) {
      const keys = keysOf(path);
      const problem = check(schema, keys, reachable, seen);
      if (problem) return { ok: false, reason: problem };
      params.push({ header: schema['x-mcp-header'] as string, path: keys });
    }
    const children = childrenOf(visit, maxNodes - found);
    if (!children) {
      return { ok: false, reason: `its input schema has more than ${maxNodes} subschemas (limits.maxSchemaNodes)` };
    }
    found += children.length;
    // Children go on the stack last-first, so they are visited in schema order.
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i] as Visit);
  }
  return { ok: true, params };
}

/**
 * The subschemas of one node in schema order, or undefined once there are more
 * than `budget`. Counted as they are found, never listed first: a node with
 * millions of properties is refused at the first past the budget.
 */
function childrenOf({ schema, path, reachable }: Visit, budget: number): Visit[] | undefined {
  const children: Visit[] = [];
  const add = (child: unknown, at: Path | undefined, reached: boolean): boolean => {
    if (isJsonObject(child)) children.push({ schema: child, path: at, reachable: reached });
    return children.length <= budget;
  };
  const { properties } = schema;
  if (isJsonObject(properties)) {
    for (const key in properties) {
      if (Object.hasOwn(properties, key) && !add(properties[key], { key, parent: path }, reachable)) return undefined;
    }
  }
  for (const keyword of ONE_SCHEMA) if (!add(schema[keyword], path, false)) return undefined;
  for (const keyword of SCHEMA_LIST) {
    const list = schema[keyword];
    if (Array.isArray(list)) for (const child of list) if (!add(child, path, false)) return undefined;
  }
  for (const keyword of SCHEMA_MAP) {
    const map = schema[keyword];
    if (!isJsonObject(map)) continue;
    for (const key in map) if (Object.hasOwn(map, key) && !add(map[key], path, false)) return undefined;
  }
  return children;
}

function check(schema: Schema, path: readonly string[], reachable: boolean, seen: Set<string>): string | undefined {
  const name = schema['x-mcp-header'];
  const where = path.length ? `property ${path.join('.')}` : 'the schema root';
  if (typeof name !== 'string' || name === '') return `x-mcp-header on ${where} is empty or not a string`;
  if (!TOKEN.test(name)) return `x-mcp-header ${JSON.stringify(name)} on ${where} is not an HTTP token`;
  if (!reachable || path.length === 0)
    return `x-mcp-header ${JSON.stringify(name)} is not reached through properties alone`;
  const type = schema.type;
  if (typeof type !== 'string' || !ALLOWED_TYPES.has(type)) {
    return `x-mcp-header ${JSON.stringify(name)} is on ${where} of type ${JSON.stringify(type)}; only string, integer and boolean are allowed`;
  }
  const folded = name.toLowerCase();
  if (seen.has(folded)) return `x-mcp-header ${JSON.stringify(name)} appears more than once`;
  seen.add(folded);
  return undefined;
}

/** The `Mcp-Param-*` headers for one call; absent and null values send no header. */
export function paramHeaders(
  params: readonly HeaderParam[],
  args: Readonly<Record<string, unknown>>,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { header, path } of params) {
    let value: unknown = args;
    for (const key of path) value = isJsonObject(value) ? value[key] : undefined;
    // Absent, null, an object or an array: no header.
    const text =
      typeof value === 'string'
        ? value
        : typeof value === 'boolean' || typeof value === 'number'
          ? String(value)
          : undefined;
    if (text !== undefined) headers[`mcp-param-${header}`] = encodeHeaderValue(text);
  }
  return headers;
}
