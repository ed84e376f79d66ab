import { z } from 'zod';
import { decodeParamValue } from './mcp-param-headers.mjs';
import { textResult } from './tool-results.mjs';

/** @typedef {import('./tool-context.mjs').ReferenceTool} ReferenceTool */

/**
 * `x-mcp-header` on a property (2026-07-28, basic/transports § Streamable HTTP):
 * zod's metadata lands in the generated JSON Schema as is.
 * @param {string} name
 */
const header = (name) => ({ 'x-mcp-header': name });

/**
 * `header-echo`: three properties mirrored into `Mcp-Param-*` headers, one that
 * is not. Returns JSON of every `mcp-*` request header received (raw, names in
 * lower case), the `mcp-param-*` ones decoded, and the arguments. Over stdio
 * there are no headers, so both maps are empty.
 * @type {ReferenceTool}
 */
export const headerEchoTool = {
  name: 'header-echo',
  title: 'Header echo',
  description: 'Echoes the Mcp-* request headers; region → Mcp-Param-Region, count → Count, dryRun → Dry-Run.',
  inputSchema: z.object({
    region: z.string().meta(header('Region')),
    count: z.number().int().meta(header('Count')).optional(),
    dryRun: z.boolean().meta(header('Dry-Run')).optional(),
    note: z.string().optional(),
  }),
  annotations: { readOnlyHint: true },
  run: async (args, ctx) => {
    /** @type {Record<string, string>} */
    const headers = {};
    /** @type {Record<string, string | null>} */
    const decoded = {};
    for (const [name, value] of ctx.httpHeaders?.() ?? []) {
      if (!name.startsWith('mcp-')) continue;
      headers[name] = value;
      if (name.startsWith('mcp-param-')) decoded[name] = decodeParamValue(value) ?? null;
    }
    return textResult(JSON.stringify({ headers, decoded, arguments: args }));
  },
};

/**
 * A tool whose `x-mcp-header` annotation breaks a 2026-07-28 rule, so a
 * conforming Streamable HTTP client must leave it out of its tool list.
 * Called anyway, it returns JSON of its arguments.
 * @param {string} name
 * @param {string} rule
 * @param {import('zod').ZodObject} inputSchema
 * @returns {ReferenceTool}
 */
function invalidHeaderTool(name, rule, inputSchema) {
  return {
    name,
    title: `Invalid x-mcp-header: ${rule}`,
    description: `Carries an invalid x-mcp-header (${rule}); conforming HTTP clients drop it.`,
    inputSchema,
    run: async (args) => textResult(JSON.stringify(args)),
  };
}

/** The tools with invalid annotations, one rule each, in `tools/list` order. */
export const invalidHeaderTools = Object.freeze([
  invalidHeaderTool(
    'bad-header-number',
    'on a number property',
    z.object({ amount: z.number().meta(header('Amount')) }),
  ),
  invalidHeaderTool(
    'bad-header-dup',
    'Region and REGION clash case-insensitively',
    z.object({ region: z.string().meta(header('Region')), zone: z.string().meta(header('REGION')) }),
  ),
  invalidHeaderTool(
    'bad-header-nested',
    'reached through items',
    z.object({ tags: z.array(z.string().meta(header('Tag'))) }),
  ),
  invalidHeaderTool(
    'bad-header-token',
    'not an RFC 9110 token',
    z.object({ region: z.string().meta(header('Bad Header')) }),
  ),
]);
