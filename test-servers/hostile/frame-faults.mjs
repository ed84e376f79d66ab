import { resultLine, textResult } from './handshake.mjs';
import { strayIds } from './payloads.mjs';
import { sendBody, sseEvent, startSse, write } from './wire.mjs';

/** Frames: answers that are cut, mislabelled, or addressed to requests nobody sent. */

/** What `odd-response` answers with, by `arguments.kind`: a response of the wrong shape. */
export const ODD_RESPONSES = {
  'result-null': '"result":null',
  'result-array': '"result":[{"type":"text","text":"x"}]',
  'result-string': '"result":"done"',
  'error-string': '"error":"boom"',
  'error-code-string': '"error":{"code":"-32000","message":"boom"}',
  'result-and-error': '"result":{"content":[]},"error":{"code":-32000,"message":"boom"}',
  'no-jsonrpc': null,
};

/** Responses to unknown ids sent before the real answer in `id-churn`. */
export const CHURN_RESPONSES = 1000;

export const FRAME_FAULTS = {
  'malformed-json': {
    family: 'frames',
    summary: 'a JSON answer cut off mid-object (complete Content-Length)',
    call: (ctx) => sendBody(ctx, `{"jsonrpc":"2.0","id":${JSON.stringify(ctx.message.id)},"result":{"content":[`),
  },
  'wrong-content-type': {
    family: 'frames',
    summary: 'the answer labelled text/html',
    call: (ctx) => sendBody(ctx, '<html>not json</html>', 'text/html'),
  },
  'unknown-id': {
    family: 'frames',
    summary: 'a JSON answer to an id the client never sent',
    call: (ctx) => sendBody(ctx, resultLine(`not-${ctx.message.id}`, JSON.stringify(textResult('stray', ctx.era)))),
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
  'huge-headers': {
    family: 'frames',
    summary: 'answers the call with 256 KiB of response headers',
    call: (ctx) => {
      const headers = { 'content-type': 'application/json' };
      for (let index = 0; index < 64; index++) headers[`x-filler-${index}`] = 'A'.repeat(4096);
      ctx.res.writeHead(200, headers);
      ctx.res.end(resultLine(ctx.message.id, JSON.stringify(textResult('too late', ctx.era))));
    },
  },
  'odd-response': {
    family: 'frames',
    summary:
      'a response of the wrong shape, chosen by arguments.kind (result null, an array or a string; error a string; both; no jsonrpc)',
    call: (ctx) => {
      const kind = String(ctx.message.params?.arguments?.kind);
      const id = JSON.stringify(ctx.message.id);
      const body =
        ODD_RESPONSES[kind] === null
          ? `{"id":${id},"result":{"content":[{"type":"text","text":"x"}]}}`
          : `{"jsonrpc":"2.0","id":${id},${ODD_RESPONSES[kind] ?? '"result":null'}}`;
      return sendBody(ctx, body);
    },
  },
};
