import { resultLine, textResult } from './handshake.mjs';
import { sendBody, sleep, sseEvent, stall, startSse, write } from './wire.mjs';

/** Floods: more messages, faster, than any handler keeps up with, or forever. */

/** Notifications a flood sends. */
export const FLOOD_NOTIFICATIONS = 10_000;
/** How many it sends per 10 ms tick: 10,000 a second. */
const PER_TICK = 100;
/** Requests `request-flood` sends at once. */
export const REQUEST_FLOOD = 1000;
/** Interval of `progress-forever`'s progress notifications, in ms. */
const PROGRESS_INTERVAL_MS = 50;
/** Requests `server-request-flood` sends at once unless `arguments.count` says otherwise. */
export const SERVER_REQUEST_FLOOD = 400;
/** How long `server-request-flood` waits for the replies before it answers the call. */
const REPLY_WAIT_MS = 10_000;

/** What `server-request-flood` asks, in turn: what a client is asked on a user's behalf, and ping. */
const ASKED = [
  {
    method: 'sampling/createMessage',
    params: { messages: [{ role: 'user', content: { type: 'text', text: 'flood' } }], maxTokens: 10 },
  },
  {
    method: 'elicitation/create',
    params: { mode: 'form', message: 'flood', requestedSchema: { type: 'object', properties: {} } },
  },
  { method: 'roots/list', params: {} },
  { method: 'ping' },
];

/** Writes the flood on an open SSE stream at 10,000/s; false if the client left first. */
async function flood(ctx) {
  for (let sent = 0; sent < FLOOD_NOTIFICATIONS; sent += PER_TICK) {
    let batch = '';
    for (let index = sent; index < sent + PER_TICK; index++) {
      const params = { level: 'info', logger: 'flood', data: `message ${index}` };
      batch += sseEvent(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params }));
    }
    if (!(await write(ctx.res, ctx.stats, batch))) return false;
    await sleep(10);
  }
  return true;
}

export const FLOOD_FAULTS = {
  'notification-flood': {
    family: 'floods',
    summary: `${FLOOD_NOTIFICATIONS.toLocaleString('en')} notifications/message at 10,000/s on the call's stream, then the answer`,
    call: async (ctx) => {
      startSse(ctx.res);
      if (!(await flood(ctx))) return;
      const answer = resultLine(ctx.message.id, JSON.stringify(textResult('flood over', ctx.era)));
      await write(ctx.res, ctx.stats, sseEvent(answer));
      ctx.res.end();
    },
  },
  'get-flood': {
    family: 'floods',
    summary: `${FLOOD_NOTIFICATIONS.toLocaleString('en')} notifications/message at 10,000/s on the standalone GET stream, which then stays open`,
    get: async (ctx) => {
      startSse(ctx.res);
      if (await flood(ctx)) await stall(ctx.res);
    },
  },
  'progress-forever': {
    family: 'floods',
    summary: `progress for the call every ${PROGRESS_INTERVAL_MS} ms, forever, and never the answer`,
    call: async (ctx) => {
      startSse(ctx.res);
      const progressToken = ctx.message.params?._meta?.progressToken;
      for (let progress = 1; ; progress++) {
        const params = { progressToken, progress, message: 'almost there' };
        const event = sseEvent(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params }));
        if (!(await write(ctx.res, ctx.stats, event))) return;
        await sleep(PROGRESS_INTERVAL_MS);
      }
    },
  },
  'server-request-flood': {
    family: 'floods',
    summary: `${SERVER_REQUEST_FLOOD} sampling, elicitation, roots and ping requests at once (legacy: on the call's stream; 2026-07-28: input requests, without ping); answers with how many got a result, an error or nothing (arguments.count)`,
    call: async (ctx) => {
      const count = Number(ctx.message.params?.arguments?.count ?? SERVER_REQUEST_FLOOD);
      if (ctx.era === 'modern') {
        const responses = ctx.message.params?.inputResponses;
        if (responses !== undefined) {
          const text = JSON.stringify({ answered: Object.keys(responses).length });
          return sendBody(ctx, resultLine(ctx.message.id, JSON.stringify(textResult(text, 'modern'))));
        }
        const inputRequests = {};
        for (let index = 0; index < count; index++) inputRequests[`ask-${index}`] = ASKED[index % 3];
        const result = { resultType: 'input_required', inputRequests };
        return sendBody(ctx, resultLine(ctx.message.id, JSON.stringify(result)));
      }
      startSse(ctx.res);
      const ids = Array.from({ length: count }, (_, index) => `flood-${ctx.endpointId}-${index}`);
      const replies = ids.map((id) => ctx.awaitAnswer(id, REPLY_WAIT_MS));
      const batch = ids.map((id, index) => sseEvent(JSON.stringify({ jsonrpc: '2.0', id, ...ASKED[index % 4] })));
      if (!(await write(ctx.res, ctx.stats, batch.join('')))) return;
      const answers = await Promise.all(replies);
      const tally = { result: 0, error: 0, none: 0 };
      for (const answer of answers) tally[answer === undefined ? 'none' : 'error' in answer ? 'error' : 'result']++;
      const answer = resultLine(ctx.message.id, JSON.stringify(textResult(JSON.stringify(tally), ctx.era)));
      await write(ctx.res, ctx.stats, sseEvent(answer));
      ctx.res.end();
    },
  },
  'request-flood': {
    family: 'floods',
    summary: `${REQUEST_FLOOD.toLocaleString('en')} ping requests on the call's stream at once; answers with how many replies came back`,
    call: async (ctx) => {
      startSse(ctx.res);
      const replies = () => ctx.stats.requests.filter((request) => request.rpcMethod === undefined).length;
      const before = replies();
      let batch = '';
      for (let index = 0; index < REQUEST_FLOOD; index++) {
        batch += sseEvent(JSON.stringify({ jsonrpc: '2.0', id: `ping-${index}`, method: 'ping' }));
      }
      if (!(await write(ctx.res, ctx.stats, batch))) return;
      for (let waited = 0; replies() - before < REQUEST_FLOOD && waited < 10_000; waited += 20) await sleep(20);
      const text = String(replies() - before);
      await write(ctx.res, ctx.stats, sseEvent(resultLine(ctx.message.id, JSON.stringify(textResult(text, ctx.era)))));
      ctx.res.end();
    },
  },
};
