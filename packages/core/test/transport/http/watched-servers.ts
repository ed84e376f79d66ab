import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { Scenario } from './harness.js';
import { createFaultHandler, type FaultScript, toNodeListener } from './test-servers.js';

/** A fault server of our own whose open responses we can see from the server side. */
export interface WatchedFaultServer {
  /** A scenario, created in process; its stats are read in process too. */
  scenario(script?: FaultScript): Scenario;
  /** `"<HTTP method> <path>"` of every MCP response the server has not finished or lost yet. */
  openResponses(): string[];
  close(): Promise<void>;
}

/**
 * Serves the fault handler on a node:http server that tracks each response
 * until it closes, so a test can tell whether the client really let go of a
 * stream (a held-open SSE response closes only when the client disconnects).
 */
export async function startWatchedFaultServer(): Promise<WatchedFaultServer> {
  const faults = createFaultHandler();
  const listener = toNodeListener(faults.handler);
  const open = new Map<ServerResponse, string>();
  const server = createServer((req, res) => {
    if (req.url?.endsWith('/mcp')) {
      open.set(res, `${req.method} ${req.url}`);
      res.on('close', () => open.delete(res));
    }
    listener(req, res);
  });
  const base = await listen(server);
  return {
    scenario(script = {}) {
      const { id, path } = faults.createScenario(script);
      return {
        id,
        mcp: `${base}${path}`,
        stats: async () => {
          const stats = faults.stats(id);
          if (!stats) throw new Error(`no scenario ${id}`);
          return structuredClone(stats);
        },
      };
    },
    openResponses: () => [...open.values()],
    close: () => stop(server, () => faults.close()),
  };
}

/** A reverse proxy in front of one MCP endpoint that writes `prefix` ahead of every SSE answer to a POST. */
export interface SsePrefixProxy {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * For what the fault server cannot script: SSE comments and events of unknown
 * types ahead of a real server's answer. The answer itself is the real server's.
 */
export async function startSsePrefixProxy(target: string, prefix: string): Promise<SsePrefixProxy> {
  const server = createServer((req, res) => {
    void forward(req, res, target, prefix).catch(() => res.destroy());
  });
  const base = await listen(server);
  return { url: `${base}/mcp`, close: () => stop(server, async () => {}) };
}

async function forward(req: IncomingMessage, res: ServerResponse, target: string, prefix: string): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) headers.set(name, value);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = req.method === 'POST' ? Buffer.concat(chunks).toString('utf8') : undefined;
  const aborter = new AbortController();
  res.on('close', () => aborter.abort());
  const init: RequestInit = { method: req.method ?? 'GET', headers, signal: aborter.signal };
  if (body !== undefined) init.body = body;
  const answer = await fetch(target, init);
  const out: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!['content-length', 'transfer-encoding', 'connection', 'content-encoding'].includes(name)) out[name] = value;
  });
  res.writeHead(answer.status, out);
  const isSse = (answer.headers.get('content-type') ?? '').startsWith('text/event-stream');
  if (isSse && req.method === 'POST') res.write(prefix);
  res.flushHeaders();
  if (answer.body === null) {
    res.end();
    return;
  }
  Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream).pipe(res);
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? `http://127.0.0.1:${address.port}` : '');
    });
  });
}

async function stop(server: Server, before: () => Promise<void>): Promise<void> {
  await before();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(() => resolve(undefined)));
}
