// An HTTP proxy in front of an MCP server that records what crosses it and can play a server's failures, for
// tests that cannot see the client's side of the wire (a Worker in workerd, a child process).
import { createServer } from 'node:http';
import { listenOnLoopback } from './serve-process.mjs';

/** Response headers fetch has already acted on (it decoded and measured the body): not passed on. */
const CONSUMED = /^(content-length|content-encoding|transfer-encoding)$/;

/**
 * Starts a proxy on 127.0.0.1 in front of `target`. Each request's JSON-RPC method (`(response)` for a
 * message without one) goes to `methods`, its `Mcp-Session-Id` to `sessions`. A session id put in
 * `forgotten` is answered 404 (a session the server forgot); a method put in `unavailable`, 503.
 * @param {string} target
 */
export async function startRecordingProxy(target) {
  /** @type {string[]} */
  const methods = [];
  /** @type {string[]} */
  const sessions = [];
  /** @type {Set<string>} */
  const forgotten = new Set();
  /** @type {Set<string>} */
  const unavailable = new Set();
  const server = createServer(async (request, response) => {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const body = Buffer.concat(chunks).toString();
    const method = body ? (JSON.parse(body).method ?? '(response)') : undefined;
    if (method) methods.push(method);
    if (method && unavailable.has(method)) return void response.writeHead(503).end('overloaded');
    const session = request.headers['mcp-session-id'];
    if (typeof session === 'string') {
      sessions.push(session);
      if (forgotten.has(session)) return void response.writeHead(404).end();
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers.set(name, value);
    }
    // The server's side ends with the client's: a stream the client let go must not stay open behind it.
    const upstream = new AbortController();
    response.on('close', () => upstream.abort());
    try {
      const { signal } = upstream;
      const answer = await fetch(target, { method: request.method ?? 'POST', headers, signal, ...(body && { body }) });
      const passed = [...answer.headers].filter(([name]) => !CONSUMED.test(name));
      response.writeHead(answer.status, Object.fromEntries(passed));
      // Passed on as it comes, so an SSE answer (a listen stream, the GET stream) reaches the client event by event.
      if (answer.body) for await (const chunk of answer.body) response.write(chunk);
    } catch {
      // The server or the client went away mid-answer: the client sees its stream end.
    }
    response.end();
  });
  const origin = await listenOnLoopback(server, 0);
  return {
    url: `${origin}/`,
    methods,
    sessions,
    forgotten,
    unavailable,
    /** @param {string} method */
    count: (method) => methods.filter((seen) => seen === method).length,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
