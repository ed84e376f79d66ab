import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OAuthProvider } from '../../src/index.js';
import { HttpRequester } from '../../src/transport/http/http-requester.js';

/**
 * A small authorization server and protected resource on one origin: codes and
 * refresh tokens are one-time, refresh tokens rotate, and the resource takes only
 * the newest access token. `/moved` redirects to the same server under another
 * origin (localhost vs 127.0.0.1) and records what arrives there.
 */
interface Seen {
  tokenRequests: URLSearchParams[];
  atOtherOrigin: Record<string, string | string[] | undefined>[];
}
let server: Server;
let base = '';
let otherOrigin = '';
const seen: Seen = { tokenRequests: [], atOtherOrigin: [] };
const state = { generation: 0, lifetime: 3600, refresh: '', access: '' };

function issue(res: ServerResponse): void {
  state.generation++;
  state.access = `at-${state.generation}`;
  state.refresh = `rt-${state.generation}`;
  json(res, 200, {
    access_token: state.access,
    token_type: 'Bearer',
    expires_in: state.lifetime,
    refresh_token: state.refresh,
  });
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', base);
  let body = '';
  for await (const chunk of req) body += chunk;
  if (req.headers.host !== new URL(base).host) {
    seen.atOtherOrigin.push(req.headers);
    return json(res, 200, {});
  }
  switch (url.pathname) {
    case '/.well-known/oauth-protected-resource/mcp':
      return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base] });
    case '/.well-known/oauth-authorization-server':
      return json(res, 200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        code_challenge_methods_supported: ['S256'],
        scopes_supported: ['mcp', 'offline_access'],
      });
    case '/authorize': {
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', 'one-time-code');
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    case '/token': {
      const params = new URLSearchParams(body);
      seen.tokenRequests.push(params);
      const grant = params.get('grant_type');
      if (grant === 'authorization_code' && params.get('code') === 'one-time-code') return issue(res);
      if (grant === 'refresh_token' && params.get('refresh_token') === state.refresh) return issue(res);
      return json(res, 400, { error: 'invalid_grant', error_description: 'unknown grant' });
    }
    case '/mcp':
    case '/moved':
      if (req.headers.authorization !== `Bearer ${state.access}`) {
        return json(
          res,
          401,
          {},
          {
            'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
          },
        );
      }
      if (url.pathname === '/moved') {
        res.writeHead(307, { location: `${otherOrigin}/landing` }).end();
        return;
      }
      return json(res, 200, { ok: true });
  }
  json(res, 404, {});
}

beforeAll(async () => {
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  otherOrigin = `http://localhost:${port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen.tokenRequests.length = 0;
  seen.atOtherOrigin.length = 0;
  state.lifetime = 3600;
});

/** A provider whose user approves at once. */
function provider(): { auth: OAuthProvider; authorizations: () => number } {
  let count = 0;
  const auth = new OAuthProvider({
    redirectUri: 'http://localhost:3000/callback',
    clients: { [base]: { client_id: 'pre-registered' } },
    authorize: async (url) => {
      count++;
      const response = await fetch(url, { redirect: 'manual' });
      return new URL(response.headers.get('location') ?? '', url);
    },
  });
  return { auth, authorizations: () => count };
}

async function post(requester: HttpRequester, path = '/mcp'): Promise<Response> {
  return requester.send({
    method: 'POST',
    url: new URL(path, base),
    headers: new Headers({ 'content-type': 'application/json' }),
    body: '{}',
    signal: new AbortController().signal,
    idempotent: false,
  });
}

describe('tokens over their lifetime', () => {
  it('authorizes on the first 401, redeems the code with resource and verifier, then resends the request', async () => {
    const { auth, authorizations } = provider();
    const requester = new HttpRequester(new URL('/mcp', base), { auth });
    expect((await post(requester)).status).toBe(200);
    expect(authorizations()).toBe(1);
    const [redeem] = seen.tokenRequests;
    expect(redeem?.get('resource')).toBe(`${base}/mcp`);
    expect(redeem?.get('code_verifier')).toMatch(/^[\w-]{43}$/);
  });

  it('refreshes a rejected token once, resends, and keeps the rotated refresh token', async () => {
    const { auth, authorizations } = provider();
    const requester = new HttpRequester(new URL('/mcp', base), { auth });
    await post(requester);
    state.access = 'revoked';
    expect((await post(requester)).status).toBe(200);
    state.access = 'revoked-again';
    expect((await post(requester)).status).toBe(200);
    expect(authorizations()).toBe(1);
    const refreshes = seen.tokenRequests.filter((params) => params.get('grant_type') === 'refresh_token');
    expect(refreshes.map((params) => params.get('refresh_token'))).toEqual([
      `rt-${state.generation - 2}`,
      `rt-${state.generation - 1}`,
    ]);
    expect(refreshes.every((params) => params.get('resource') === `${base}/mcp`)).toBe(true);
  });

  it('refreshes an expired token before sending it', async () => {
    state.lifetime = 0.2;
    const { auth } = provider();
    const requester = new HttpRequester(new URL('/mcp', base), { auth });
    await post(requester);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const before = seen.tokenRequests.length;
    expect((await post(requester)).status).toBe(200);
    expect(seen.tokenRequests.slice(before).map((params) => params.get('grant_type'))).toEqual(['refresh_token']);
  });

  it('authorizes again when the refresh token is refused', async () => {
    const { auth, authorizations } = provider();
    const requester = new HttpRequester(new URL('/mcp', base), { auth });
    await post(requester);
    state.access = 'revoked';
    state.refresh = 'revoked';
    expect((await post(requester)).status).toBe(200);
    expect(authorizations()).toBe(2);
  });

  it('drops the token and any DPoP proof on a redirect to another origin', async () => {
    const { auth } = provider();
    const requester = new HttpRequester(new URL('/mcp', base), { auth, headers: { DPoP: 'proof' } });
    await post(requester);
    const response = await requester.send({
      method: 'POST',
      url: new URL('/moved', base),
      headers: new Headers({ 'content-type': 'application/json', DPoP: 'proof' }),
      body: '{}',
      signal: new AbortController().signal,
      idempotent: false,
    });
    expect(response.status).toBe(200);
    expect(seen.atOtherOrigin).toHaveLength(1);
    expect(seen.atOtherOrigin[0]?.authorization).toBeUndefined();
    expect(seen.atOtherOrigin[0]?.dpop).toBeUndefined();
  });
});
