import { healthyAnswer, isHostileCall } from './handshake.mjs';
import { plain, readBody, stall, startSse, write } from './wire.mjs';

/**
 * The 2024-11-05 HTTP+SSE side of the hostile server (`?era=sse`): every POST
 * to the MCP URL is refused with 405, so a client falls back; the GET opens the
 * session stream, whose `endpoint` event names where to POST (`…/messages`),
 * and every answer travels on that stream as an `event: message`. A fault
 * takes over with `sse.endpoint(ctx)` (what the endpoint event says; undefined
 * sends none) and `sse.call(ctx, stream)` (the answer to `tools/call hostile`).
 */
export async function serveLegacySse(ctx, fault, path, streams) {
  const { req, res, stats, endpointId } = ctx;
  if (path === 'mcp') {
    stats.requests.push({ httpMethod: req.method ?? '' });
    if (req.method !== 'GET') return plain(res, 405, 'this server speaks HTTP+SSE: GET the stream');
    startSse(res);
    streams.set(endpointId, res);
    res.once('close', () => {
      if (streams.get(endpointId) === res) streams.delete(endpointId);
    });
    const endpoint = fault.sse?.endpoint
      ? fault.sse.endpoint(ctx)
      : `/hostile/${ctx.fault}/${endpointId}/messages?era=sse`;
    if (endpoint !== undefined) await write(res, stats, `event: endpoint\ndata: ${endpoint}\n\n`);
    return stall(res);
  }
  if (req.method !== 'POST') return plain(res, 405, 'POST messages here');
  const message = JSON.parse(await readBody(req));
  ctx.message = message;
  stats.requests.push({ httpMethod: 'POST', rpcMethod: message.method, tool: message.params?.name });
  plain(res, 202, '');
  const stream = streams.get(endpointId);
  if (!stream) return;
  if (message.method === undefined) return ctx.answered(message);
  if (isHostileCall(message) && fault.sse?.call) return fault.sse.call(ctx, stream);
  const answer = healthyAnswer(message, 'legacy');
  if (answer !== undefined) await write(stream, stats, `event: message\ndata: ${answer}\n\n`);
}
