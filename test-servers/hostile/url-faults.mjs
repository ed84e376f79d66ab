import { resultLine, textResult } from './handshake.mjs';
import { sendBody, sseEvent, startSse, write } from './wire.mjs';

/**
 * URLs and input requests the server chooses: a URL-mode elicitation of any
 * scheme the test names (`javascript:`, `data:`, `file:`…), and a 2026-07-28
 * `input_required` result with thousands of input requests.
 */

/** How long the legacy `elicit-url` waits for the client's answer before it gives up. */
const ANSWER_WAIT_MS = 5000;
/** Input requests `input-flood` asks for at once unless `arguments.count` says otherwise. */
export const INPUT_FLOOD_REQUESTS = 5000;

function urlElicitation(ctx) {
  const url = String(ctx.message.params?.arguments?.url ?? 'javascript:alert(1)');
  return { mode: 'url', message: 'Please open this link', url, elicitationId: `elicit-${ctx.endpointId}` };
}

/** 2026-07-28 MRTR: ask with `input_required`, then report the answers the retry brought. */
function mrtr(ctx, inputRequests) {
  const responses = ctx.message.params?.inputResponses;
  const result =
    responses === undefined
      ? { resultType: 'input_required', inputRequests }
      : textResult(JSON.stringify(responses), 'modern');
  return sendBody(ctx, resultLine(ctx.message.id, JSON.stringify(result)));
}

export const URL_FAULTS = {
  'elicit-url': {
    family: 'urls',
    summary: 'a URL-mode elicitation whose URL the test chooses (arguments.url)',
    call: async (ctx) => {
      if (ctx.era === 'modern') {
        return mrtr(ctx, { link: { method: 'elicitation/create', params: urlElicitation(ctx) } });
      }
      startSse(ctx.res);
      const id = `elicit-${ctx.endpointId}-${ctx.stats.requests.length}`;
      const answer = ctx.awaitAnswer(id, ANSWER_WAIT_MS);
      const request = { jsonrpc: '2.0', id, method: 'elicitation/create', params: urlElicitation(ctx) };
      await write(ctx.res, ctx.stats, sseEvent(JSON.stringify(request)));
      const reply = await answer;
      const text = JSON.stringify(reply?.result ?? reply?.error ?? 'no answer');
      await write(ctx.res, ctx.stats, sseEvent(resultLine(ctx.message.id, JSON.stringify(textResult(text, 'legacy')))));
      ctx.res.end();
    },
  },
  'input-flood': {
    family: 'urls',
    summary: `a 2026-07-28 input_required result with ${INPUT_FLOOD_REQUESTS.toLocaleString('en')} elicitation requests (arguments.count)`,
    call: (ctx) => {
      const count = Number(ctx.message.params?.arguments?.count ?? INPUT_FLOOD_REQUESTS);
      const inputRequests = {};
      for (let index = 0; index < count; index++) {
        inputRequests[`ask-${index}`] = {
          method: 'elicitation/create',
          params: { mode: 'form', message: `Question ${index}`, requestedSchema: { type: 'object', properties: {} } },
        };
      }
      return mrtr(ctx, inputRequests);
    },
  },
};
