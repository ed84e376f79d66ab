import { resultLine, textResult } from './handshake.mjs';
import { sleep, sseEvent, startSse, write } from './wire.mjs';

/** Floods: more messages, faster, than any handler keeps up with. */

/** Notifications `notification-flood` sends before it answers. */
export const FLOOD_NOTIFICATIONS = 10_000;
/** How many it sends per 10 ms tick: 10,000 a second. */
const PER_TICK = 100;

export const FLOOD_FAULTS = {
  'notification-flood': {
    family: 'floods',
    summary: `${FLOOD_NOTIFICATIONS.toLocaleString('en')} notifications/message at 10,000/s on the call's stream, then the answer`,
    call: async (ctx) => {
      startSse(ctx.res);
      for (let sent = 0; sent < FLOOD_NOTIFICATIONS; sent += PER_TICK) {
        let batch = '';
        for (let index = sent; index < sent + PER_TICK; index++) {
          const params = { level: 'info', logger: 'flood', data: `message ${index}` };
          batch += sseEvent(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params }));
        }
        if (!(await write(ctx.res, ctx.stats, batch))) return;
        await sleep(10);
      }
      await write(
        ctx.res,
        ctx.stats,
        sseEvent(resultLine(ctx.message.id, JSON.stringify(textResult('flood over', ctx.era)))),
      );
      ctx.res.end();
    },
  },
};
