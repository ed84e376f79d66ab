/**
 * Bodies on the wire. Writing hostile ones without hurting the test process
 * that hosts the server: endless bodies honour backpressure and stop when the
 * client goes away or a cap is reached, and every byte written is counted, so
 * a test can tell how much a client read before it gave up. Reading requests
 * is bounded too.
 */

/** Largest request body the server reads: clients send small messages. */
const MAX_REQUEST_BYTES = 1024 * 1024;

/** Endless writers stop here even if the client never does (the test then fails on time, not on memory). */
export const ENDLESS_CAP_BYTES = 512 * 1024 * 1024;

const CHUNK = Buffer.alloc(64 * 1024, 'A');

/** Writes `chunk` to `res`, counts it in `stats.bytesWritten`, and waits for drain when the socket is full. */
export async function write(res, stats, chunk) {
  if (res.destroyed || res.writableEnded) return false;
  stats.bytesWritten += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
  if (res.write(chunk)) return true;
  return new Promise((resolve) => {
    const done = (ok) => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

/** Writes 'A' after `head` until the client goes away (or the cap): a body or line without end. */
export async function writeEndless(res, stats, head) {
  if (!(await write(res, stats, head))) return;
  while (stats.bytesWritten < ENDLESS_CAP_BYTES) {
    if (!(await write(res, stats, CHUNK))) return;
  }
  res.end();
}

/** Keeps `res` open, writing nothing more, until the client goes away: a stall. */
export function stall(res) {
  return new Promise((resolve) => {
    if (res.destroyed) resolve();
    else res.once('close', resolve);
  });
}

/** One SSE event; `fields` may carry `id` and `retry`. */
export function sseEvent(data, fields = {}) {
  let event = '';
  if (fields.id !== undefined) event += `id: ${fields.id}\n`;
  if (fields.retry !== undefined) event += `retry: ${fields.retry}\n`;
  return `${event}data: ${data}\n\n`;
}

/** A whole answer with its `Content-Length`, counted like any hostile write. */
export async function sendBody(ctx, body, contentType = 'application/json') {
  ctx.res.writeHead(200, { 'content-type': contentType, 'content-length': String(Buffer.byteLength(body)) });
  await write(ctx.res, ctx.stats, body);
  ctx.res.end();
}

export function startSse(res, extraHeaders = {}) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...extraHeaders });
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function plain(res, status, text) {
  res.writeHead(status, { 'content-type': 'text/plain' });
  res.end(text);
}

export async function readBody(req) {
  const parts = [];
  let size = 0;
  for await (const part of req) {
    size += part.byteLength;
    if (size > MAX_REQUEST_BYTES) throw new Error('request body too large');
    parts.push(part);
  }
  return Buffer.concat(parts).toString('utf8');
}
