import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { HTTP_FAULTS } from './faults.mjs';
import { healthyAnswer, isHostileCall, resultLine, textResult } from './handshake.mjs';
import { serveLegacySse } from './legacy-sse.mjs';
import { plain, readBody } from './wire.mjs';

/**
 * The hostile MCP server over HTTP: `/hostile/<fault>/<n>/mcp?era=legacy|modern`
 * answers like a Streamable HTTP server of that era, except where the switch
 * `<fault>` (see faults.mjs, README.md) misbehaves. `<n>` names one endpoint, so
 * tests never share counts. A second listener, the "other origin", is where
 * redirects point; it records every request that reaches it.
 */

export { GZIP_BOMB_DECODED_BYTES } from './bombs.mjs';
export { FLOOD_NOTIFICATIONS, REQUEST_FLOOD, SERVER_REQUEST_FLOOD } from './flood-faults.mjs';
export { CHURN_RESPONSES, ODD_RESPONSES } from './frame-faults.mjs';
export { DEEP_SCHEMA_LEVELS, HUGE_PAGE_TOOLS, ITEMS_PER_PAGE, PAGE_DESCRIPTION_CHARS } from './shape-faults.mjs';
export { INPUT_FLOOD_REQUESTS } from './url-faults.mjs';
export { ENDLESS_CAP_BYTES } from './wire.mjs';

/** `?era=`: 2025-11-25 Streamable HTTP, 2026-07-28, or the 2024-11-05 HTTP+SSE transport. */
const ERAS = ['legacy', 'modern', 'sse'];

export async function startHostileServer() {
  /** @type {Map<string, ReturnType<typeof newStats>>} */
  const endpoints = new Map();
  /** The open HTTP+SSE session stream of each endpoint (`?era=sse`). */
  const sseStreams = new Map();
  /** Answers to server→client requests, by request id. */
  const waiters = new Map();
  let next = 0;

  const main = createServer((req, res) => {
    void route(req, res).catch((error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`hostile server error: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  const other = createServer((req, res) => {
    void elsewhere(req, res);
  });
  const base = await listen(main);
  const otherOrigin = await listen(other);

  async function route(req, res) {
    const url = new URL(req.url ?? '/', base);
    const match = /^\/hostile\/([a-z-]+)\/(\d+)\/(mcp|messages)$/.exec(url.pathname);
    const fault = match && HTTP_FAULTS[match[1]];
    if (!match || !fault) return plain(res, 404, 'no such hostile endpoint');
    // An endpoint not made by `endpoint()` (someone trying the server by hand) starts its stats now.
    const stats = endpoints.get(match[2]) ?? endpoints.set(match[2], newStats()).get(match[2]);
    const era = ERAS.includes(url.searchParams.get('era')) ? url.searchParams.get('era') : 'legacy';
    res.on('close', () => {
      if (!res.writableFinished) stats.clientGone++;
    });
    const ctx = {
      req,
      res,
      url,
      era,
      stats,
      fault: match[1],
      endpointId: match[2],
      otherOrigin,
      message: undefined,
      refuseGet: () => plain(res, 405, 'no GET stream here'),
      awaitAnswer: (id, ms) => awaitAnswer(id, ms),
      answered: (message) => waiters.get(message.id)?.(message),
    };
    if (era === 'sse') return serveLegacySse(ctx, HTTP_FAULTS[match[1]], match[3], sseStreams);
    if (match[3] !== 'mcp') return plain(res, 404, 'no such hostile endpoint');
    if (req.method === 'GET') {
      stats.requests.push({ httpMethod: 'GET', lastEventId: req.headers['last-event-id'] });
      return fault.get ? fault.get(ctx) : ctx.refuseGet();
    }
    if (req.method === 'DELETE') return plain(res, 200, '');
    if (req.method !== 'POST') return plain(res, 405, 'method not allowed');
    const message = JSON.parse(await readBody(req));
    ctx.message = message;
    stats.requests.push({ httpMethod: 'POST', rpcMethod: message.method, tool: message.params?.name });
    if (message.method === undefined) {
      ctx.answered(message);
      return plain(res, 202, '');
    }
    const handshake = fault.handshake?.(ctx);
    if (handshake) return handshake;
    if (message.method === 'tools/list' && fault.list) return fault.list(ctx);
    if (isHostileCall(message) && fault.call) return fault.call(ctx);
    const answer = healthyAnswer(message, era);
    if (answer === undefined) return plain(res, 202, '');
    const headers = { 'content-type': 'application/json' };
    if (message.method === 'initialize' && era === 'legacy') headers['mcp-session-id'] = `hostile-session-${match[2]}`;
    res.writeHead(200, headers);
    res.end(answer);
  }

  /** The other origin: records the request and answers any call as if it were the server. */
  async function elsewhere(req, res) {
    const url = new URL(req.url ?? '/', otherOrigin);
    const id = /^\/elsewhere\/(\d+)\/mcp$/.exec(url.pathname)?.[1];
    const body = await readBody(req).catch(() => '');
    endpoints.get(id ?? '')?.otherOrigin.push({ httpMethod: req.method ?? '', headers: { ...req.headers } });
    let message;
    try {
      message = JSON.parse(body);
    } catch {
      return plain(res, 400, 'not json');
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(resultLine(message.id, JSON.stringify(textResult('answered by another origin', 'legacy'))));
  }

  function awaitAnswer(id, ms) {
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle(undefined), ms);
      const settle = (message) => {
        clearTimeout(timer);
        waiters.delete(id);
        resolve(message);
      };
      waiters.set(id, settle);
    });
  }

  return {
    url: base,
    otherOrigin,
    /** A fresh endpoint for `fault` in `era`: its URL and what it has seen so far. */
    endpoint(fault, era = 'legacy') {
      if (!ERAS.includes(era)) throw new Error(`unknown era: ${era}`);
      if (!HTTP_FAULTS[fault]) throw new Error(`unknown hostile fault: ${fault}`);
      const id = String(++next);
      const stats = newStats();
      endpoints.set(id, stats);
      return { url: `${base}/hostile/${fault}/${id}/mcp?era=${era}`, stats };
    },
    async close() {
      for (const waiter of waiters.values()) waiter(undefined);
      await Promise.all([main, other].map(stop));
    },
  };
}

function newStats() {
  return {
    /** Every request, in order: `{ httpMethod, rpcMethod?, tool?, lastEventId? }`. */
    requests: [],
    /** Bytes the hostile answers wrote (what a client was sent before it gave up). */
    bytesWritten: 0,
    /** Responses the client walked away from before their end. */
    clientGone: 0,
    /** Requests that reached the other origin, with their headers. */
    otherOrigin: [],
  };
}

function listen(server) {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`));
  });
}

function stop(server) {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const server = await startHostileServer();
  process.stdout.write(
    `hostile server on ${server.url}/hostile/<fault>/<n>/mcp (other origin ${server.otherOrigin})\n`,
  );
}
