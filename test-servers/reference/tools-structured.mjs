import { z } from 'zod';
import { textResult } from './tool-results.mjs';

/** @typedef {import('./tool-context.mjs').ReferenceTool} ReferenceTool */

/**
 * The `structured` profile: tools that declare an `outputSchema` and return
 * whatever `structuredContent` the caller hands them, so a client's output
 * validation (2025-06-18+, server/tools § Output Schema) can be driven to every
 * outcome: a conforming value, a wrong one, none at all, a tool error, and
 * schemas a client cannot use. Neither SDK's low-level `Server` checks a result
 * against its tool's `outputSchema`, so what the tool returns is what the
 * client gets.
 */

/**
 * Input of every tool here: `structured` becomes the result's
 * `structuredContent` (left out when absent), `isError` marks the result a tool error.
 */
const shapedInput = z.object({ structured: z.unknown().optional(), isError: z.boolean().optional() });

/**
 * A result carrying `structured` as `structuredContent`, and its JSON as
 * text too, as servers SHOULD for clients that ignore structured output.
 * @param {Record<string, any>} args
 */
function shapedResult({ structured, isError }) {
  return {
    ...textResult(JSON.stringify(structured ?? null)),
    ...(structured !== undefined && { structuredContent: structured }),
    ...(isError === true && { isError: true }),
  };
}

/**
 * A tool listing `outputSchema` and returning what it is asked to.
 * @param {string} name
 * @param {string} about
 * @param {{ outputSchema?: import('zod').ZodType, outputJsonSchema?: Record<string, unknown> }} schema
 * @returns {ReferenceTool}
 */
function shapedTool(name, about, schema) {
  return {
    name,
    title: name,
    description: `${about} Returns its \`structured\` argument as structuredContent (none when absent).`,
    inputSchema: shapedInput,
    ...schema,
    run: async (args) => shapedResult(args),
  };
}

/** JSON Schema nested `levels` deep through `properties`, for the client's depth bound. */
function nestedSchema(levels) {
  /** @type {Record<string, unknown>} */
  let schema = { type: 'number' };
  for (let level = 0; level < levels; level++) schema = { type: 'object', properties: { next: schema } };
  return schema;
}

/**
 * The tools of `--profile structured`, in `tools/list` order.
 * @type {readonly ReferenceTool[]}
 */
export const structuredTools = Object.freeze([
  // `{sum: number}`, required: the schema a conforming result matches.
  shapedTool('sum-report', 'Output schema {sum: number}, sum required.', {
    outputSchema: z.object({ sum: z.number(), note: z.string().optional() }),
  }),
  // Any JSON value may be structured output from 2026-07-28 on; the v2 server wraps it as {result} for 2025 clients.
  shapedTool('word-list', 'Output schema: an array of strings (2026-07-28: any JSON value).', {
    outputSchema: z.array(z.string()),
  }),
  // `type` names no JSON type: a schema no validator can use.
  shapedTool('bad-schema', 'Output schema with an invalid type ("decimal").', {
    outputJsonSchema: { type: 'object', properties: { sum: { type: 'decimal' } } },
  }),
  // A $ref into another document: a client must not fetch it (2026-07-28, § JSON Schema Usage).
  shapedTool('remote-ref', 'Output schema that is a $ref to another document.', {
    outputJsonSchema: { $ref: 'https://schemas.example.com/report.json' },
  }),
  // A dialect no validator speaks.
  shapedTool('odd-dialect', 'Output schema declaring an unknown $schema dialect.', {
    outputJsonSchema: { $schema: 'https://example.com/my-dialect', type: 'object' },
  }),
  // 200 levels of properties: past a client's bound on schema depth.
  shapedTool('deep-schema', 'Output schema nested 200 levels deep.', { outputJsonSchema: nestedSchema(200) }),
  // Recursive through $defs: a value nested deep enough makes a recursive validator run out of stack.
  shapedTool('tree', 'Output schema: arrays of arrays, recursive through $defs.', {
    outputJsonSchema: { $ref: '#/$defs/node', $defs: { node: { type: 'array', items: { $ref: '#/$defs/node' } } } },
  }),
  // A local $ref, draft-07: resolvable, so it validates.
  shapedTool('draft7-ref', 'Draft-07 output schema with a local $ref to definitions.', {
    outputJsonSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { total: { $ref: '#/definitions/count' } },
      required: ['total'],
      definitions: { count: { type: 'integer', minimum: 0 } },
    },
  }),
]);
