import type { Tool } from '../protocol/tools.js';
import { encodeHeaderValue } from './header-values.js';

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
/** Keywords through which an annotation is unreachable by `properties` alone. */
const NOT_A_PATH = [
  'items',
  'prefixItems',
  'additionalProperties',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$ref',
  '$defs',
  'definitions',
  'patternProperties',
  'dependentSchemas',
];

type Schema = Readonly<Record<string, unknown>>;
const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads and checks the `x-mcp-header` annotations of a tool's input schema
 * (2026-07-28, tools § x-mcp-header). A tool with an invalid one must be left
 * out of the list the client exposes; `reason` says why.
 */
export function headerAnnotations(tool: Tool): HeaderAnnotations {
  const params: HeaderParam[] = [];
  const seen = new Set<string>();
  const problem = walk(tool.inputSchema as Schema, [], true, params, seen);
  return problem ? { ok: false, reason: problem } : { ok: true, params };
}

function walk(
  schema: Schema,
  path: string[],
  reachable: boolean,
  params: HeaderParam[],
  seen: Set<string>,
): string | undefined {
  if ('x-mcp-header' in schema) {
    const problem = check(schema, path, reachable, seen);
    if (problem) return problem;
    params.push({ header: schema['x-mcp-header'] as string, path });
  }
  const properties = schema.properties;
  if (isSchema(properties)) {
    for (const [key, child] of Object.entries(properties)) {
      if (isSchema(child)) {
        const problem = walk(child, [...path, key], reachable, params, seen);
        if (problem) return problem;
      }
    }
  }
  for (const keyword of NOT_A_PATH) {
    const nested = schema[keyword];
    for (const child of Array.isArray(nested) ? nested : isSchema(nested) ? [nested, ...Object.values(nested)] : []) {
      if (isSchema(child)) {
        const problem = walk(child, path, false, params, seen);
        if (problem) return problem;
      }
    }
  }
  return undefined;
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
    for (const key of path) value = isSchema(value) ? value[key] : undefined;
    if (value === undefined || value === null) continue;
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
