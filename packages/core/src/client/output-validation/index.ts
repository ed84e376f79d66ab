import type { ValidationResult } from '@cfworker/json-schema';
import { OutputValidationError } from '../../errors/output-validation-error.js';
import type { ToolResult } from '../../protocol/tools.js';
import { messageOf } from '../../util/message-of.js';
import { type ClientOptions, DEFAULT_MAX_SCHEMA_NODES, DEFAULT_MAX_VALIDATION_STEPS } from '../options.js';
import { type CompiledSchema, compileOutputSchema } from './compile.js';

/**
 * Output-schema validation, loaded on demand: the first time a program calls a
 * tool that listed an `outputSchema` (a program whose tools declare none never
 * downloads the validator, `@cfworker/json-schema`: eval-free, so it runs in
 * Workers and under a strict Content-Security-Policy).
 */

/**
 * Each output schema compiled once, keyed by the schema object of the listing
 * it came in: a new listing brings new objects, so a changed schema is compiled
 * (and warned about) afresh, and an old one is dropped with its listing.
 */
const compiled = new WeakMap<object, CompiledSchema>();

/**
 * The result of a call to `tool`, checked against the `outputSchema` it listed
 * (2025-06-18 on, server/tools § Output Schema; in 2026-07-28 the schema may
 * describe any JSON value, not only an object). A result with `isError` is the
 * tool's own failure and is not checked. Otherwise `structuredContent` must be
 * there and validate, else `OutputValidationError`, naming the first failing
 * path; each error carries the `result`. A schema that cannot be used
 * (`compileOutputSchema` says why, bounded by `limits.maxSchemaNodes`) is
 * reported once to `onWarning`, and the tool keeps working as if it had listed
 * none: nothing of its results is checked. A validation past
 * `limits.maxValidationSteps` fails with a `LimitError` as cause.
 */
export function checkOutput(
  tool: string,
  schema: Readonly<Record<string, unknown>>,
  result: ToolResult,
  { limits, onWarning }: Pick<ClientOptions, 'limits' | 'onWarning'>,
): ToolResult {
  if (result.isError) return result;
  const where = `tools/call: tool ${JSON.stringify(tool)}`;
  let schemaState = compiled.get(schema);
  if (!schemaState) {
    schemaState = compileOutputSchema(
      schema,
      limits?.maxSchemaNodes ?? DEFAULT_MAX_SCHEMA_NODES,
      limits?.maxValidationSteps ?? DEFAULT_MAX_VALIDATION_STEPS,
    );
    compiled.set(schema, schemaState);
    if ('reason' in schemaState) {
      onWarning?.(`${where}: outputSchema not used, results pass unchecked: ${schemaState.reason}`);
    }
  }
  if (!('validate' in schemaState)) return result;
  const { structuredContent } = result;
  if (structuredContent === undefined) {
    const message = 'structuredContent is missing, though the tool listed an outputSchema';
    throw new OutputValidationError(tool, '', `${where}: ${message}`, { issues: [{ path: '', message }] }, { result });
  }
  let outcome: ValidationResult;
  try {
    outcome = schemaState.validate(structuredContent);
  } catch (error) {
    const odd = error instanceof URIError ? loneSurrogateKey(structuredContent) : undefined;
    if (odd !== undefined) {
      // The validator cannot name such a member (its JSON Pointer does not encode): it fails here, by its path.
      const message = 'a member name holds a lone surrogate, which is not Unicode text';
      throw new OutputValidationError(
        tool,
        odd,
        `${where}: structuredContent does not match its outputSchema at ${odd}: ${message}`,
        { issues: [{ path: odd, message }], received: structuredContent },
        { cause: error, result },
      );
    }
    // The validator recurses: a value nested deeper than the stack allows cannot be checked, so it is not passed.
    const message = `could not be validated: ${messageOf(error)}`;
    throw new OutputValidationError(
      tool,
      '',
      `${where}: structuredContent ${message}`,
      {
        issues: [{ path: '', message }],
        received: structuredContent,
      },
      { cause: error, result },
    );
  }
  if (outcome.valid) return result;
  const issues = outcome.errors.map((unit) => ({ path: dottedPath(unit.instanceLocation), message: unit.error }));
  // The validator stops at the first failing keyword and lists the way down to it: the last is the failure itself.
  const first = issues.at(-1) ?? { path: '', message: 'does not match' };
  throw new OutputValidationError(
    tool,
    first.path,
    `${where}: structuredContent does not match its outputSchema at ${first.path || '(root)'}: ${first.message}`,
    { issues, received: structuredContent },
    { result },
  );
}

/**
 * The dotted path of the first member of `value` whose name holds a lone
 * surrogate (`"\ud800"`: JSON may carry it, UTF-8 cannot), or undefined.
 * Iterative: a value may nest deep.
 */
function loneSurrogateKey(value: unknown): string | undefined {
  const pending: [unknown, string][] = [[value, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [part, path] = next;
    if (typeof part !== 'object' || part === null) continue;
    for (const [key, child] of Object.entries(part)) {
      const at = path === '' ? key : `${path}.${key}`;
      if (LONE_SURROGATE.test(key)) return at;
      pending.push([child, at]);
    }
  }
  return undefined;
}

/** A surrogate code unit not in a pair: with the `u` flag, a pair is one code point and does not match. */
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/** A validator location (`#/items/0/name`, a URI-encoded JSON Pointer) as a dotted path (`items.0.name`). */
function dottedPath(location: string): string {
  const pointer = location.replace(/^#/, '');
  if (pointer === '') return '';
  return pointer
    .slice(1)
    .split('/')
    .map((token) => decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
}
