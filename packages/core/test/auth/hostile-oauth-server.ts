/**
 * A protected MCP endpoint, its PRM, an authorization server and a token
 * endpoint on one real node:http listener, each route replaceable by a
 * misbehaving one (huge bodies, stalls, redirects, server errors). `publicOrigin`
 * is the origin the documents name: a test that needs a server somewhere other
 * than this machine gives one like `https://mcp.test` and reaches the listener
 * through `routedFetch`, which records every URL asked for.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpRequester } from '../../src/transport/http/http-requester.js';

export type Route = (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>;

export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly body: string;
}

export interface HostileOAuthServer {
  /** Where the listener really is (`http://127.0.0.1:<port>`). */
  readonly base: string;
  /** The origin the documents name (default: `base`). */
  readonly origin: string;
  readonly seen: SeenRequest[];
  /** Replaces the handler of one path. */
  route(path: string, handler: Route): void;
  /** Tokens the token endpoint issued; the MCP endpoint takes these only. */
  readonly issued: Set<string>;
  /** Stops listening, ending the connections stalling routes hold open. */
  close(): Promise<void>;
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** A JSON document of at least `bytes` bytes: `{"pad":"xxxx…"}`. */
export function paddedJson(bytes: number): string {
  return JSON.stringify({ pad: 'x'.repeat(bytes) });
}

export async function startHostileOAuthServer(publicOrigin?: string): Promise<HostileOAuthServer> {
  const routes = new Map<string, Route>();
  const seen: SeenRequest[] = [];
  const issued = new Set<string>();
  let origin = publicOrigin ?? '';
  const defaults: Record<string, Route> = {
    '/mcp': (req, res) => {
      const presented = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
      if (issued.has(presented)) return json(res, 200, { ok: true });
      json(
        res,
        401,
        {},
        { 'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"` },
      );
    },
    '/.well-known/oauth-protected-resource/mcp': (_req, res) =>
      json(res, 200, { resource: `${origin}/mcp`, authorization_servers: [origin] }),
    '/.well-known/oauth-authorization-server': (_req, res) =>
      json(res, 200, { issuer: origin, token_endpoint: `${origin}/token` }),
    '/token': (_req, res) => {
      const token = `at-${issued.size + 1}`;
      issued.add(token);
      json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
    },
  };
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    let body = '';
    for await (const chunk of req) body += chunk;
    seen.push({ method: req.method ?? '', path, body });
    const handler = routes.get(path) ?? defaults[path];
    if (handler) await handler(req, res, body);
    else json(res, 404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  origin ||= base;
  return {
    base,
    origin,
    seen,
    issued,
    route: (path, handler) => void routes.set(path, handler),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A fetch that sends requests for `https://<name>.test` to `base` (the listener),
 * as DNS would for a server elsewhere, and records every URL it is asked for.
 */
export function routedFetch(base: string): { fetch: typeof fetch; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    fetch: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      asked.push(url.href);
      if (!url.hostname.endsWith('.test')) return fetch(url, init);
      return fetch(new URL(url.pathname + url.search, base), init);
    },
  };
}

/** POSTs `{}` to `url` through the transport's requester, authorized by `auth` (and sent with `fetchFn`). */
export function callThrough(
  url: string,
  auth: import('../../src/index.js').OAuthProvider,
  fetchFn?: typeof fetch,
): Promise<Response> {
  const endpoint = new URL(url);
  const requester = new HttpRequester(endpoint, { auth, ...(fetchFn && { fetch: fetchFn }) });
  return requester.send({
    method: 'POST',
    url: endpoint,
    headers: new Headers({ 'content-type': 'application/json' }),
    body: '{}',
    signal: new AbortController().signal,
    idempotent: false,
  });
}
