import { resultLine, TOOLS, textResult } from './handshake.mjs';
import { deepJson, deepNotSchema, deepResult, protoResult, protoTool, wideResult, wideSchema } from './payloads.mjs';
import { sendBody, sseEvent, startSse, write } from './wire.mjs';

/** JSON shapes: deep and wide values and schemas, prototype keys, endless pagination. */

/** `not` levels of the `deep-schema` tool: about 10 s at 36 and hours at 50 for a walk that doubles per level. */
export const DEEP_SCHEMA_LEVELS = 36;
/** Properties of the `wide-schema` tool's input schema. */
export const WIDE_SCHEMA_PROPERTIES = 100_000;
/** Tools on the one page of `huge-page`: under any item bound a client may set, each with a long description. */
export const HUGE_PAGE_TOOLS = 5000;
/** Characters of each `huge-page` tool's description: the page is about 5 MiB. */
const HUGE_PAGE_DESCRIPTION = 1000;
/** How long `deep-request` waits for the client's answer before it gives up. */
const ANSWER_WAIT_MS = 5000;

/** Tools on each page of `many-items`: 10,000 (the client's default `limits.maxListItems`) is passed on the 11th page. */
export const ITEMS_PER_PAGE = 1000;
/**
 * Characters of the one tool description on each page of `heavy-pages`: 16 MiB
 * (the default `limits.maxListBytes`) is passed on the 32nd page, each page
 * within the 1 MiB `maxMessageBytes` the hostile suite gives its clients.
 */
export const PAGE_DESCRIPTION_CHARS = 512 * 1024;

/** A `tools/list` page of `toolsJson` (JSON text of tool objects) that names a next page, always. */
function endlessPage(ctx, toolsJson) {
  const cursor = `page-${ctx.stats.requests.length}`;
  const complete = ctx.era === 'modern' ? '"resultType":"complete","ttlMs":0,' : '';
  return sendBody(
    ctx,
    resultLine(ctx.message.id, `{${complete}"tools":[${toolsJson}],"nextCursor":${JSON.stringify(cursor)}}`),
  );
}

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
  'huge-page': {
    family: 'json-shapes',
    summary: `tools/list whose one page holds ${HUGE_PAGE_TOOLS.toLocaleString('en')} tools of ${HUGE_PAGE_DESCRIPTION}-character descriptions (about 5 MiB)`,
    list: (ctx) => {
      const description = 'd'.repeat(HUGE_PAGE_DESCRIPTION);
      const tools = Array.from({ length: HUGE_PAGE_TOOLS }, (_, index) =>
        JSON.stringify({ name: `tool-${index}`, description, inputSchema: { type: 'object' } }),
      );
      return listWith(ctx, tools);
    },
  },
  'deep-error': {
    family: 'json-shapes',
    summary: 'a JSON-RPC error whose data nests 100,000 arrays deep',
    call: (ctx) =>
      sendBody(
        ctx,
        `{"jsonrpc":"2.0","id":${JSON.stringify(ctx.message.id)},"error":{"code":-32000,"message":"deep","data":${deepJson()}}}`,
      ),
  },
  'deep-notification': {
    family: 'json-shapes',
    summary: "a notifications/message whose data nests 100,000 arrays deep on the call's stream, then the answer",
    call: async (ctx) => {
      startSse(ctx.res);
      const notification = `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"deep","data":${deepJson()}}}`;
      if (!(await write(ctx.res, ctx.stats, sseEvent(notification)))) return;
      const answer = resultLine(ctx.message.id, JSON.stringify(textResult('after the deep notification', ctx.era)));
      await write(ctx.res, ctx.stats, sseEvent(answer));
      ctx.res.end();
    },
  },
  'deep-request': {
    family: 'json-shapes',
    summary:
      "a sampling/createMessage request whose metadata nests 100,000 arrays deep (legacy: on the call's stream; 2026-07-28: an input request), then the client's reply as the answer",
    call: async (ctx) => {
      const params = `{"messages":[{"role":"user","content":{"type":"text","text":"deep"}}],"maxTokens":10,"metadata":{"deep":${deepJson()}}}`;
      if (ctx.era === 'modern') {
        const responses = ctx.message.params?.inputResponses;
        const result =
          responses === undefined
            ? `{"resultType":"input_required","inputRequests":{"deep":{"method":"sampling/createMessage","params":${params}}}}`
            : JSON.stringify(textResult(JSON.stringify(responses), 'modern'));
        return sendBody(ctx, resultLine(ctx.message.id, result));
      }
      startSse(ctx.res);
      const id = `deep-${ctx.endpointId}-${ctx.stats.requests.length}`;
      const reply = ctx.awaitAnswer(id, ANSWER_WAIT_MS);
      const request = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"sampling/createMessage","params":${params}}`;
      if (!(await write(ctx.res, ctx.stats, sseEvent(request)))) return;
      const answered = await reply;
      const text = JSON.stringify(answered?.result ?? answered?.error ?? 'no answer');
      await write(ctx.res, ctx.stats, sseEvent(resultLine(ctx.message.id, JSON.stringify(textResult(text, ctx.era)))));
      ctx.res.end();
    },
  },
  'endless-pages': {
    family: 'json-shapes',
    summary: 'tools/list that always names a next page',
    list: (ctx) => endlessPage(ctx, ''),
  },
  'many-items': {
    family: 'json-shapes',
    summary: `tools/list pages of ${ITEMS_PER_PAGE.toLocaleString('en')} small tools each, always naming a next page`,
    list: (ctx) => {
      const page = ctx.stats.requests.length;
      const tools = Array.from({ length: ITEMS_PER_PAGE }, (_, index) =>
        JSON.stringify({ name: `tool-${page}-${index}`, inputSchema: { type: 'object' } }),
      );
      return endlessPage(ctx, tools.join(','));
    },
  },
  'heavy-pages': {
    family: 'json-shapes',
    summary: 'tools/list pages of one tool with a 512 KiB description each, always naming a next page',
    list: (ctx) => {
      const tool = { name: `heavy-${ctx.stats.requests.length}`, description: 'x'.repeat(PAGE_DESCRIPTION_CHARS) };
      return endlessPage(ctx, JSON.stringify({ ...tool, inputSchema: { type: 'object' } }));
    },
  },
};
