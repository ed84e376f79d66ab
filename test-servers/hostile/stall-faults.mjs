import { stall, startSse, write } from './wire.mjs';

/** Stalls: a server that stops talking at the worst moment and keeps the connection open. */

export const STALL_FAULTS = {
  'stall-before-headers': {
    family: 'stalls',
    summary: 'never answers the call, connection kept open',
    call: (ctx) => stall(ctx.res),
  },
  'stall-mid-body': {
    family: 'stalls',
    summary: 'sends headers and half of a JSON body, then nothing',
    call: async (ctx) => {
      const body = `{"jsonrpc":"2.0","id":${JSON.stringify(ctx.message.id)},"result":{"content":[{"type":"text","text":"never finished"}]}}`;
      ctx.res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
      await write(ctx.res, ctx.stats, body.slice(0, body.length >> 1));
      await stall(ctx.res);
    },
  },
  'stall-initialized': {
    family: 'stalls',
    summary: 'answers initialize, then never acknowledges notifications/initialized (the POST is held open)',
    handshake: (ctx) => (ctx.message.method === 'notifications/initialized' ? stall(ctx.res) : undefined),
  },
  'stall-mid-sse': {
    family: 'stalls',
    summary: 'opens the SSE stream, sends half an event, then nothing',
    call: async (ctx) => {
      startSse(ctx.res);
      await write(ctx.res, ctx.stats, `data: {"jsonrpc":"2.0","id":${JSON.stringify(ctx.message.id)},`);
      await stall(ctx.res);
    },
  },
};
