import { Readable } from 'node:stream';

/**
 * @typedef {(request: Request) => Promise<Response>} WebHandler
 * A web-standard handler: what every server in this folder is, so the same
 * code could run in Node, miniflare or Deno.
 */

/**
 * Serves a web-standard handler on `node:http`. The one Node-specific piece:
 * it turns the fault handler's network-error marker (`Response.error()`) and
 * a body stream that errors into a reset TCP connection, which is what a
 * client sees when a real server or proxy dies mid-exchange.
 * @param {WebHandler} handler
 * @returns {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void}
 */
export function toNodeListener(handler) {
  return (req, res) => {
    void serve(handler, req, res).catch((error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`test server error: ${error instanceof Error ? error.message : String(error)}`);
    });
  };
}

/**
 * @param {WebHandler} handler
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 */
async function serve(handler, req, res) {
  const aborter = new AbortController();
  // The client went away before we finished: let handlers (stalls, held streams) stop.
  res.on('close', () => {
    if (!res.writableFinished) aborter.abort();
  });
  const response = await handler(toWebRequest(req, aborter.signal));
  if (response.type === 'error') return reset(req);

  res.writeHead(response.status, response.statusText, headersOf(response.headers));
  // SSE responses may have no bytes for a while; the client's fetch resolves on headers.
  res.flushHeaders();
  if (response.body === null) return void res.end();

  const reader = response.body.getReader();
  aborter.signal.addEventListener('abort', () => void reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise((resolve) => res.once('drain', resolve));
    }
  } catch {
    // A body that errors mid-stream is a connection dropped mid-response.
    return reset(req);
  }
  res.end();
}

/**
 * @param {import('node:http').IncomingMessage} req
 * @param {AbortSignal} signal
 * @returns {Request}
 */
function toWebRequest(req, signal) {
  const url = `http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`;
  const headers = new Headers();
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    for (const value of values ?? []) headers.append(name, value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(url, {
    method: req.method ?? 'GET',
    headers,
    signal,
    ...(hasBody && { body: /** @type {ReadableStream} */ (Readable.toWeb(req)), duplex: 'half' }),
  });
}

/**
 * @param {Headers} headers
 * @returns {Record<string, string | string[]>}
 */
function headersOf(headers) {
  /** @type {Record<string, string | string[]>} */
  const result = {};
  for (const [name, value] of headers) result[name] = value;
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) result['set-cookie'] = cookies;
  return result;
}

/**
 * Drops the connection with a TCP RST, so the client's fetch fails with a
 * network error (ECONNRESET) instead of reading a truncated body.
 * @param {import('node:http').IncomingMessage} req
 */
function reset(req) {
  const socket = req.socket;
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}
