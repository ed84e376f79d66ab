import { resultLine, TOOLS } from './handshake.mjs';
import { deepNotSchema, deepResult, protoResult, protoTool, wideResult, wideSchema } from './payloads.mjs';
import { sendBody } from './wire.mjs';

/** JSON shapes: deep and wide values and schemas, prototype keys, endless pagination. */

/** `not` levels of the `deep-schema` tool: about 10 s at 36 and hours at 50 for a walk that doubles per level. */
export const DEEP_SCHEMA_LEVELS = 36;
/** Properties of the `wide-schema` tool's input schema. */
export const WIDE_SCHEMA_PROPERTIES = 100_000;

/** `tools/list` answered with `TOOLS` plus `extra` (JSON text of tool objects). */
function listWith(ctx, extra) {
  const complete = ctx.era === 'modern' ? '"resultType":"complete","ttlMs":0,' : '';
  const tools = [...TOOLS.map((tool) => JSON.stringify(tool)), ...extra].join(',');
  return sendBody(ctx, resultLine(ctx.message.id, `{${complete}"tools":[${tools}]}`));
}

/** Tool results are the payload plus, in 2026-07-28, `resultType` in front. */
function callWith(ctx, resultJson) {
  const body = ctx.era === 'modern' ? `{"resultType":"complete",${resultJson.slice(1)}` : resultJson;
  return sendBody(ctx, resultLine(ctx.message.id, body));
}

export const SHAPE_FAULTS = {
  'deep-json': {
    family: 'json-shapes',
    summary: 'a result whose structuredContent and _meta nest 100,000 arrays deep',
    call: (ctx) => callWith(ctx, deepResult()),
  },
  'wide-json': {
    family: 'json-shapes',
    summary: 'a result of 100,000 content parts',
    call: (ctx) => callWith(ctx, wideResult()),
  },
  'proto-keys': {
    family: 'json-shapes',
    summary: '__proto__, constructor and prototype keys in a result and in a tool definition',
    list: (ctx) => listWith(ctx, [protoTool()]),
    call: (ctx) => callWith(ctx, protoResult()),
  },
  'deep-schema': {
    family: 'json-shapes',
    summary: `a tool whose input schema nests ${DEEP_SCHEMA_LEVELS} \`not\` blocks around an x-mcp-header`,
    list: (ctx) =>
      listWith(ctx, [JSON.stringify({ name: 'deep-schema', inputSchema: deepNotSchema(DEEP_SCHEMA_LEVELS) })]),
  },
  'wide-schema': {
    family: 'json-shapes',
    summary: `a tool whose input schema has ${WIDE_SCHEMA_PROPERTIES.toLocaleString('en')} properties`,
    list: (ctx) =>
      listWith(ctx, [JSON.stringify({ name: 'wide-schema', inputSchema: wideSchema(WIDE_SCHEMA_PROPERTIES) })]),
  },
  'endless-pages': {
    family: 'json-shapes',
    summary: 'tools/list that always names a next page',
    list: (ctx) => {
      const cursor = `page-${ctx.stats.requests.length}`;
      const complete = ctx.era === 'modern' ? '"resultType":"complete","ttlMs":0,' : '';
      return sendBody(
        ctx,
        resultLine(ctx.message.id, `{${complete}"tools":[],"nextCursor":${JSON.stringify(cursor)}}`),
      );
    },
  },
};
