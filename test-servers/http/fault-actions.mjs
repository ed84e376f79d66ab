import { jsonRpcError } from './session-endpoint.mjs';
import { cutAfterEvents, holdOpen, messageOf, sseBlocks, textStream, withBadEventFirst } from './sse-streams.mjs';

/**
 * @typedef {object} ActionContext
 * @property {import('./fault-script.mjs').RequestFacts} facts
 * @property {() => Promise<Response>} forward hands the request to the inner MCP server
 * @property {(sessionId: string) => Promise<boolean>} expire forgets a session of the inner server
 * @property {string} redirectTarget where a redirect points unless the rule names a `location`
 * @property {AbortSignal} signal aborts when the client goes away or the fault handler closes
 */

/**
 * Carries out one fault action. `Response.error()` is the network-error
 * marker: the Node adapter answers it by resetting the connection.
 * @param {import('./fault-script.mjs').FaultAction} action
 * @param {ActionContext} context
 * @returns {Promise<Response>}
 */
export async function perform(action, context) {
  const { facts, forward, signal } = context;
  switch (action.type) {
    case 'status':
      return statusResponse(action);
    case 'reset-before':
      return Response.error();
    case 'reset-after': {
      // The server runs the request to its answer; the client never sees it.
      await drainUntilAnswered(await forward(), facts.id);
      return Response.error();
    }
    case 'drop-sse-after': {
      const response = await forward();
      if (!isSse(response) || response.body === null) return response;
      return rewrap(response, cutAfterEvents(response.body, action.events, action.how));
    }
    case 'expire-session': {
      if (facts.sessionId === undefined) return forward();
      await context.expire(facts.sessionId);
      return jsonRpcError(404, -32001, 'Session not found');
    }
    case 'malformed':
      return malformed(action.kind, context);
    case 'oversized':
      return oversized(action.bytes, action.as, facts.id);
    case 'gzip':
      return gzipped(action.bytes, action.as, facts.id);
    case 'stall':
      return stall(action, context);
    case 'hold-open': {
      const response = await forward();
      return rewrap(response, holdOpen(sseBodyOf(response), action.commentEveryMs, signal), 'text/event-stream');
    }
    case 'refuse-and-stall': {
      // The start of a JSON body, then nothing until the client leaves.
      const body = textStream(async (write, cancelled) => {
        write('{"jsonrpc":"2.0","error":');
        await wait(undefined, AbortSignal.any([signal, cancelled]));
      });
      return new Response(body, { status: action.status, headers: { 'content-type': 'application/json' } });
    }
    case 'redirect':
      return new Response(null, {
        status: action.status,
        headers: { location: action.location ?? context.redirectTarget },
      });
  }
}

/** @param {{ status: number, headers?: Record<string, string> | undefined, body?: unknown }} action */
function statusResponse({ status, headers = {}, body }) {
  const bodiless = status === 204 || status === 205 || status === 304;
  if (bodiless || body === undefined) return new Response(null, { status, headers });
  if (typeof body === 'string')
    return new Response(body, { status, headers: { 'content-type': 'text/plain', ...headers } });
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/**
 * @param {'not-json' | 'not-jsonrpc' | 'sse-bad-data'} kind
 * @param {ActionContext} context
 */
async function malformed(kind, context) {
  const json = { 'content-type': 'application/json' };
  if (kind === 'not-json') {
    return new Response(`{"jsonrpc":"2.0","id":${JSON.stringify(context.facts.id ?? null)},"result":{"content":[`, {
      headers: json,
    });
  }
  if (kind === 'not-jsonrpc') return new Response('{"hello":"not a JSON-RPC message"}', { headers: json });
  const response = await context.forward();
  return rewrap(response, withBadEventFirst(sseBodyOf(response)), 'text/event-stream');
}

/**
 * A JSON-RPC result for the request, padded to `bytes` (as one JSON body or
 * one SSE event), streamed in chunks so a large size costs no memory.
 * @param {number} bytes
 * @param {'json' | 'sse'} as
 * @param {string | number | undefined} id
 */
function oversized(bytes, as, id) {
  const head = `${as === 'sse' ? 'event: message\ndata: ' : ''}{"jsonrpc":"2.0","id":${JSON.stringify(id ?? null)},"result":{"content":[{"type":"text","text":"`;
  const tail = `"}]}}${as === 'sse' ? '\n\n' : ''}`;
  const chunk = 'x'.repeat(64 * 1024);
  const body = textStream(async (write, cancelled) => {
    write(head);
    for (let left = bytes - head.length - tail.length; left > 0 && !cancelled.aborted; left -= chunk.length) {
      write(left >= chunk.length ? chunk : chunk.slice(0, left));
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    write(tail);
  });
  return new Response(body, { headers: { 'content-type': as === 'sse' ? 'text/event-stream' : 'application/json' } });
}

/**
 * A body of `bytes` bytes once decoded, sent gzip-compressed with the
 * compressed size as Content-Length (a few KiB for MiBs of padding): a JSON-RPC
 * result for the request, one SSE event holding it, or (`json-error`) a 400
 * whose JSON body is a JSON-RPC error for it. What a client that trusts
 * Content-Length as the size of what it reads lets through.
 * @param {number} bytes
 * @param {'json' | 'sse' | 'json-error'} as
 * @param {string | number | undefined} id
 */
async function gzipped(bytes, as, id) {
  const start = `{"jsonrpc":"2.0","id":${JSON.stringify(id ?? null)},`;
  const [head, tail] =
    as === 'json-error'
      ? [`${start}"error":{"code":-32600,"message":"`, '"}}']
      : [
          `${as === 'sse' ? 'event: message\ndata: ' : ''}${start}"result":{"content":[{"type":"text","text":"`,
          `"}]}}${as === 'sse' ? '\n\n' : ''}`,
        ];
  const encoder = new TextEncoder();
  const chunk = encoder.encode('x'.repeat(64 * 1024));
  let left = bytes - head.length - tail.length;
  const plain = new ReadableStream({
    start: (controller) => controller.enqueue(encoder.encode(head)),
    pull(controller) {
      if (left <= 0) {
        controller.enqueue(encoder.encode(tail));
        return controller.close();
      }
      controller.enqueue(left >= chunk.length ? chunk : chunk.subarray(0, left));
      left -= chunk.length;
    },
  });
  const compressed = await new Response(plain.pipeThrough(new CompressionStream('gzip'))).arrayBuffer();
  const type = as === 'sse' ? 'text/event-stream' : 'application/json';
  return new Response(compressed, {
    status: as === 'json-error' ? 400 : 200,
    headers: { 'content-type': type, 'content-encoding': 'gzip', 'content-length': String(compressed.byteLength) },
  });
}

/**
 * `before-headers`: no answer at all for `ms` (then the real answer), or ever.
 * `after-headers`: SSE headers at once, then silence for `ms` (then the real
 * events), or forever.
 * @param {{ ms?: number | undefined, phase: 'before-headers' | 'after-headers' }} action
 * @param {ActionContext} context
 */
async function stall({ ms, phase }, context) {
  if (phase === 'before-headers') {
    const waited = await wait(ms, context.signal);
    return waited ? context.forward() : Response.error();
  }
  const body = textStream(async (write, cancelled) => {
    if (!(await wait(ms, AbortSignal.any([context.signal, cancelled])))) return;
    for await (const block of sseBlocks(sseBodyOf(await context.forward()))) write(block.text);
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } });
}

/**
 * Resolves true after `ms`, false if `signal` aborts first; with no `ms`, waits for the abort.
 * @param {number | undefined} ms
 * @param {AbortSignal} signal
 * @returns {Promise<boolean>}
 */
function wait(ms, signal) {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = ms === undefined ? undefined : setTimeout(() => resolve(true), ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve(false);
      },
      { once: true },
    );
  });
}

/**
 * Reads a response until it carries the answer to `id` (or ends).
 * @param {Response} response
 * @param {string | number | undefined} id
 */
async function drainUntilAnswered(response, id) {
  if (response.body === null) return;
  if (!isSse(response)) return void (await response.arrayBuffer());
  for await (const block of sseBlocks(response.body)) {
    const message = /** @type {{ id?: unknown, method?: unknown } | undefined} */ (messageOf(block.text));
    if (message !== undefined && message.method === undefined && message.id === id) return;
  }
}

/** @param {Response} response */
function isSse(response) {
  return (response.headers.get('content-type') ?? '').includes('text/event-stream');
}

/**
 * The response's body as SSE: itself if it is a stream, else its JSON as one event.
 * @param {Response} response
 * @returns {ReadableStream<Uint8Array>}
 */
function sseBodyOf(response) {
  if (isSse(response) && response.body !== null) return response.body;
  return textStream(async (write) => {
    const text = await response.text();
    if (text !== '') write(`event: message\ndata: ${text}\n\n`);
  });
}

/**
 * @param {Response} response
 * @param {ReadableStream<Uint8Array>} body
 * @param {string} [contentType]
 */
function rewrap(response, body, contentType) {
  const headers = new Headers(response.headers);
  if (contentType !== undefined) headers.set('content-type', contentType);
  headers.delete('content-length');
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}
