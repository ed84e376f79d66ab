import { createGzip, gzipSync } from 'node:zlib';
import { resultLine } from './handshake.mjs';
import { sendBody, sseEvent, startSse, write, writeEndless } from './wire.mjs';

/**
 * Bombs: bodies that are small on the wire or never end. A client must count
 * the bytes it decodes, not trust `Content-Length` (the compressed size).
 */

/** What a gzip bomb decodes to: 64 MiB of 'A', from about 64 KiB on the wire. */
export const GZIP_BOMB_DECODED_BYTES = 64 * 1024 * 1024;

let filler;

/** One gzip member of 64 MiB of 'A', compressed once per process without ever holding 64 MiB. */
function gzipFiller() {
  filler ??= new Promise((resolve, reject) => {
    const gzip = createGzip({ level: 9 });
    const parts = [];
    gzip.on('data', (part) => parts.push(part));
    gzip.on('end', () => resolve(Buffer.concat(parts)));
    gzip.on('error', reject);
    const chunk = Buffer.alloc(1024 * 1024, 'A');
    for (let written = 0; written < GZIP_BOMB_DECODED_BYTES; written += chunk.byteLength) gzip.write(chunk);
    gzip.end();
  });
  return filler;
}

/**
 * `head`, the 64 MiB filler and `tail` as concatenated gzip members (RFC 1952
 * §2.2: a gzip file is a series of members; decoders join them), with the
 * honest compressed `Content-Length`.
 */
async function sendGzipBomb(ctx, status, contentType, head, tail) {
  const parts = [gzipSync(head), await gzipFiller(), ...(tail ? [gzipSync(tail)] : [])];
  const body = Buffer.concat(parts);
  ctx.res.writeHead(status, {
    'content-type': contentType,
    'content-encoding': 'gzip',
    'content-length': String(body.byteLength),
  });
  await write(ctx.res, ctx.stats, body);
  ctx.res.end();
}

export const BOMB_FAULTS = {
  'gzip-bomb': {
    family: 'bombs',
    summary: 'JSON answer of ~64 KiB gzip that decodes to 64 MiB, with the compressed Content-Length',
    call: (ctx) =>
      sendGzipBomb(
        ctx,
        200,
        'application/json',
        `{"jsonrpc":"2.0","id":${JSON.stringify(ctx.message.id)},"result":{"content":[{"type":"text","text":"`,
        '"}]}}',
      ),
  },
  'gzip-bomb-sse': {
    family: 'bombs',
    summary: 'SSE answer of ~64 KiB gzip whose one event decodes to 64 MiB',
    call: (ctx) => sendGzipBomb(ctx, 200, 'text/event-stream', 'data: ', '\n\n'),
  },
  'gzip-bomb-error': {
    family: 'bombs',
    summary: 'HTTP 500 whose ~64 KiB gzip error body decodes to 64 MiB',
    call: (ctx) => sendGzipBomb(ctx, 500, 'text/plain', 'server error: ', undefined),
  },
  'endless-sse-line': {
    family: 'bombs',
    summary: 'SSE answer whose first line never ends',
    call: (ctx) => {
      startSse(ctx.res);
      return writeEndless(ctx.res, ctx.stats, 'data: ');
    },
  },
  'endless-body': {
    family: 'bombs',
    summary: 'JSON answer without Content-Length that never ends',
    call: (ctx) => {
      ctx.res.writeHead(200, { 'content-type': 'application/json' });
      const head = `{"jsonrpc":"2.0","id":${JSON.stringify(ctx.message.id)},"result":{"content":[{"type":"text","text":"`;
      return writeEndless(ctx.res, ctx.stats, head);
    },
  },
  'oversized-body': {
    family: 'bombs',
    summary: 'a well-formed 4 MiB JSON answer with its Content-Length',
    call: (ctx) => {
      const text = 'A'.repeat(4 * 1024 * 1024);
      return sendBody(ctx, resultLine(ctx.message.id, JSON.stringify({ content: [{ type: 'text', text }] })));
    },
  },
  'oversized-sse-event': {
    family: 'bombs',
    summary: 'a well-formed 4 MiB JSON response in one SSE event',
    call: async (ctx) => {
      startSse(ctx.res);
      const text = 'A'.repeat(4 * 1024 * 1024);
      await write(
        ctx.res,
        ctx.stats,
        sseEvent(resultLine(ctx.message.id, JSON.stringify({ content: [{ type: 'text', text }] }))),
      );
      ctx.res.end();
    },
  },
  'endless-error-body': {
    family: 'bombs',
    summary: 'HTTP 500 whose text body never ends',
    call: (ctx) => {
      ctx.res.writeHead(500, { 'content-type': 'text/plain' });
      return writeEndless(ctx.res, ctx.stats, 'server error: ');
    },
  },
  'endless-refusal-body': {
    family: 'bombs',
    summary: 'HTTP 400 whose JSON body (where a -32020-style error would be) never ends',
    call: (ctx) => {
      ctx.res.writeHead(400, { 'content-type': 'application/json' });
      return writeEndless(
        ctx.res,
        ctx.stats,
        `{"jsonrpc":"2.0","id":${JSON.stringify(ctx.message.id)},"error":{"code":-32020,"message":"`,
      );
    },
  },
};
