import { startSse, write } from './wire.mjs';

/**
 * Retry storms: streams that say `retry: 0` and end at once, every time, so a
 * client that trusts them reconnects as fast as the network allows.
 */

/** A priming event (an id, no data: 2025-11-25 resumability) with `retry: 0`, then the end of the stream. */
async function primeAndEnd(ctx) {
  startSse(ctx.res);
  const id = `storm-${ctx.stats.requests.length}`;
  await write(ctx.res, ctx.stats, `id: ${id}\nretry: 0\ndata: \n\n`);
  ctx.res.end();
}

export const STORM_FAULTS = {
  'retry-storm-post': {
    family: 'retry-storms',
    summary: "the call's stream and every resumption GET say retry: 0 and end without the answer",
    call: primeAndEnd,
    get: (ctx) => (ctx.req.headers['last-event-id'] === undefined ? ctx.refuseGet() : primeAndEnd(ctx)),
  },
  'retry-storm-get': {
    family: 'retry-storms',
    summary: 'the standalone GET stream says retry: 0 and ends at once, every time',
    get: async (ctx) => {
      startSse(ctx.res);
      await write(ctx.res, ctx.stats, 'retry: 0\n\n');
      ctx.res.end();
    },
  },
  'retry-storm-get-empty': {
    family: 'retry-storms',
    summary: 'the standalone GET stream opens and ends at once without any event',
    get: (ctx) => {
      startSse(ctx.res);
      ctx.res.end();
    },
  },
  'event-id-unicode': {
    family: 'retry-storms',
    summary:
      "the call's stream primes with an event id that is not a byte string (\u{1F4A5}) and ends without the answer",
    call: async (ctx) => {
      startSse(ctx.res);
      await write(ctx.res, ctx.stats, 'id: \u{1F4A5}\nretry: 0\ndata: \n\n');
      ctx.res.end();
    },
    get: (ctx) => ctx.refuseGet(),
  },
  'get-event-id-unicode': {
    family: 'retry-storms',
    summary: 'the standalone GET stream sends an event whose id is not a byte string, then ends',
    get: async (ctx) => {
      startSse(ctx.res);
      const note = JSON.stringify({
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: 'hi' },
      });
      await write(ctx.res, ctx.stats, `id: \u{1F4A5}\nretry: 0\ndata: ${note}\n\n`);
      ctx.res.end();
    },
  },
  'retry-after-storm': {
    family: 'retry-storms',
    summary: 'answers the call with 503 and Retry-After: 0, every time',
    call: (ctx) => {
      ctx.res.writeHead(503, { 'retry-after': '0', 'content-type': 'text/plain' });
      ctx.res.end('busy');
    },
  },
  'retry-after-forever': {
    family: 'retry-storms',
    summary: 'answers the call with 503 and Retry-After: 31536000 (a year)',
    call: (ctx) => {
      ctx.res.writeHead(503, { 'retry-after': '31536000', 'content-type': 'text/plain' });
      ctx.res.end('come back next year');
    },
  },
};
