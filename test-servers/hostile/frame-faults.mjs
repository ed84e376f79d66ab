import { resultLine, textResult } from './handshake.mjs';
import { strayIds } from './payloads.mjs';
import { sseEvent, startSse, write } from './wire.mjs';

/** Frames: answers that are cut, mislabelled, or addressed to requests nobody sent. */

/** Responses to unknown ids sent before the real answer in `id-churn`. */
export const CHURN_RESPONSES = 1000;

async function sendJson(ctx, body, contentType = 'application/json') {
  ctx.res.writeHead(200, { 'content-type': contentType, 'content-length': String(Buffer.byteLength(body)) });
  await write(ctx.res, ctx.stats, body);
  ctx.res.end();
}

export const FRAME_FAULTS = {
  'malformed-json': {
    family: 'frames',
    summary: 'a JSON answer cut off mid-object (complete Content-Length)',
    call: (ctx) => sendJson(ctx, `{"jsonrpc":"2.0","id":${JSON.stringify(ctx.message.id)},"result":{"content":[`),
  },
  'wrong-content-type': {
    family: 'frames',
    summary: 'the answer labelled text/html',
    call: (ctx) => sendJson(ctx, '<html>not json</html>', 'text/html'),
  },
  'unknown-id': {
    family: 'frames',
    summary: 'a JSON answer to an id the client never sent',
    call: (ctx) => sendJson(ctx, resultLine(`not-${ctx.message.id}`, JSON.stringify(textResult('stray', ctx.era)))),
  },
  'id-churn': {
    family: 'frames',
    summary: `${CHURN_RESPONSES} responses to unknown ids (numbers, strings, __proto__, constructor) on the call's stream, then its answer`,
    call: async (ctx) => {
      startSse(ctx.res);
      for (const id of strayIds(CHURN_RESPONSES)) {
        await write(ctx.res, ctx.stats, sseEvent(resultLine(id, '{"content":[]}')));
      }
      await write(
        ctx.res,
        ctx.stats,
        sseEvent(resultLine(ctx.message.id, JSON.stringify(textResult('after churn', ctx.era)))),
      );
      ctx.res.end();
    },
  },
  'sse-not-json': {
    family: 'frames',
    summary: "an SSE event on the call's stream that is not JSON, then the answer",
    call: async (ctx) => {
      startSse(ctx.res);
      await write(ctx.res, ctx.stats, sseEvent('{"jsonrpc":"2.0", this is not json'));
      await write(
        ctx.res,
        ctx.stats,
        sseEvent(resultLine(ctx.message.id, JSON.stringify(textResult('after garbage', ctx.era)))),
      );
      ctx.res.end();
    },
  },
};
