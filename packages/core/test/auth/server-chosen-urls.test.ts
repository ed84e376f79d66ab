import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Grant, type OAuthOptions, OAuthProvider, type OAuthUrlPurpose } from '../../src/index.js';
import {
  callThrough,
  type HostileOAuthServer,
  json,
  routedFetch,
  startHostileOAuthServer,
} from './hostile-oauth-server.js';

/**
 * URLs a server chooses (resource_metadata, issuers, endpoints) are https, never
 * this machine or an internal network unless the MCP server is on it, never
 * reached by a redirect, and the app's allowUrl has the final word on each. The MCP server here is elsewhere:
 * `https://mcp.test`, reached through a fetch that routes it to a local listener.
 */
const ORIGIN = 'https://mcp.test';
let server: HostileOAuthServer;
let routed: ReturnType<typeof routedFetch>;
beforeEach(async () => {
  server = await startHostileOAuthServer(ORIGIN);
  routed = routedFetch(server.base);
});
afterEach(() => server.close());

function call(options: Partial<OAuthOptions> = {}, issuer: Extract<Grant, { issuer: unknown }>['issuer'] = ORIGIN) {
  const auth = new OAuthProvider({
    fetch: routed.fetch,
    grant: { type: 'client_credentials', issuer, client: { client_id: 'm', client_secret: 'top-s3cret' } },
    ...options,
  });
  return callThrough(`${ORIGIN}/mcp`, auth, routed.fetch).then(
    (response) => response.status,
    (error: unknown) => error,
  );
}

const tokenPosts = () => server.seen.filter((request) => request.path === '/token');

describe('URLs the server chooses', () => {
  it('authorizes with a server elsewhere over https, showing allowUrl each URL it fetches', async () => {
    const shown: [string, OAuthUrlPurpose][] = [];
    const status = await call({
      allowUrl: (url, purpose) => {
        shown.push([url.href, purpose]);
        return true;
      },
    });
    expect(status).toBe(200);
    expect(shown).toEqual([
      [`${ORIGIN}/.well-known/oauth-protected-resource/mcp`, 'resource_metadata'],
      [`${ORIGIN}/.well-known/oauth-authorization-server`, 'authorization_server_metadata'],
      [`${ORIGIN}/token`, 'token'],
    ]);
  });

  it('refuses a plain http resource_metadata from a server that is not on loopback, fetching nothing there', async () => {
    server.route('/mcp', (_req, res) =>
      json(res, 401, {}, { 'www-authenticate': 'Bearer resource_metadata="http://mcp.test/prm"' }),
    );
    expect(await call()).toMatchObject({ name: 'AuthError', code: 'insecure_endpoint' });
    expect(routed.asked.filter((url) => url.startsWith('http:'))).toEqual([]);
  });

  it('refuses a plain http issuer named in the resource metadata', async () => {
    server.route('/.well-known/oauth-protected-resource/mcp', (_req, res) =>
      json(res, 200, { resource: `${ORIGIN}/mcp`, authorization_servers: ['http://as.test'] }),
    );
    // Pinned, so the URL rule is what refuses it.
    expect(await call({}, ['http://as.test'])).toMatchObject({ name: 'AuthError', code: 'insecure_endpoint' });
    expect(routed.asked.filter((url) => url.includes('as.test'))).toEqual([]);
  });

  it('refuses a plain http token endpoint before sending the credentials', async () => {
    server.route('/.well-known/oauth-authorization-server', (_req, res) =>
      json(res, 200, { issuer: ORIGIN, token_endpoint: 'http://mcp.test/token' }),
    );
    const failure = await call();
    expect(failure).toMatchObject({ name: 'AuthError', code: 'insecure_endpoint' });
    expect((failure as Error).message).toContain('token endpoint');
    expect(tokenPosts()).toEqual([]);
  });

  it('refuses a URL on this machine named by a server that is not on it', async () => {
    server.route('/.well-known/oauth-authorization-server', (_req, res) =>
      json(res, 200, { issuer: ORIGIN, token_endpoint: 'https://127.0.0.1:8443/token' }),
    );
    expect(await call()).toMatchObject({ name: 'AuthError', code: 'insecure_endpoint' });
    expect(routed.asked.filter((url) => url.includes('127.0.0.1'))).toEqual([]);
  });

  it.each([
    'https://0.0.0.0:8443/token',
    'https://[::]:8443/token',
    'https://[::ffff:127.0.0.1]:8443/token',
    'https://localhost.:8443/token',
    'https://app.localhost.:8443/token',
    'https://127.1:8443/token',
  ])('refuses %s, another spelling of this machine, named by a server that is not on it', async (endpoint) => {
    server.route('/.well-known/oauth-authorization-server', (_req, res) =>
      json(res, 200, { issuer: ORIGIN, token_endpoint: endpoint }),
    );
    const failure = await call();
    expect(failure).toMatchObject({ name: 'AuthError', code: 'insecure_endpoint' });
    expect((failure as Error).message).toContain('may not point the client at this machine');
    expect(routed.asked.filter((url) => !url.startsWith(ORIGIN))).toEqual([]);
    expect(tokenPosts()).toEqual([]);
  });

  it.each([
    ['https://169.254.169.254/latest/api/token', 'a link-local address'],
    ['https://0xa9fea9fe/token', 'a link-local address'],
    ['https://[::ffff:169.254.169.254]/token', 'a link-local address'],
    ['https://[fd00:ec2::254]/token', 'a private address'],
    ['https://10.0.0.5/token', 'a private address'],
    ['https://172.16.0.1/token', 'a private address'],
    ['https://192.168.1.1/token', 'a private address'],
    ['https://100.100.100.200/token', 'a private address'],
    ['https://[fe80::1]/token', 'a link-local address'],
  ])(
    'refuses the token endpoint %s, on an internal network, before sending the credentials',
    async (endpoint, where) => {
      server.route('/.well-known/oauth-authorization-server', (_req, res) =>
        json(res, 200, { issuer: ORIGIN, token_endpoint: endpoint }),
      );
      const failure = await call();
      expect(failure).toMatchObject({ name: 'AuthError', code: 'insecure_endpoint' });
      expect((failure as Error).message).toContain(`may not point the client at ${where}`);
      expect(routed.asked.filter((url) => !url.startsWith(ORIGIN))).toEqual([]);
      expect(tokenPosts()).toEqual([]);
    },
  );

  it('sends to an internal token endpoint that allowUrl allows, told why the rule refuses it', async () => {
    server.route('/.well-known/oauth-authorization-server', (_req, res) =>
      json(res, 200, { issuer: ORIGIN, token_endpoint: 'https://10.0.0.5/token' }),
    );
    const told: unknown[] = [];
    const internal: string[] = [];
    const failure = await call({
      allowUrl: (url, _purpose, { refused }) => {
        told.push([url.host, refused]);
        return true;
      },
      // Stands in for the internal network, which answers nothing here.
      fetch: (input, init) => {
        const url = new Request(input, init).url;
        if (!url.startsWith('https://10.0.0.5/')) return routed.fetch(input, init);
        internal.push(url);
        return Promise.reject(new TypeError('fetch failed'));
      },
    });
    expect(told).toContainEqual(['10.0.0.5', 'private']);
    expect(internal).toEqual(['https://10.0.0.5/token']);
    expect(failure).toMatchObject({ name: 'AuthError', code: 'token_request_failed' });
  });

  it('lets allowUrl veto a server-chosen URL: url_refused, and nothing is sent there', async () => {
    const failure = await call({ allowUrl: (_url, purpose) => purpose !== 'token' });
    expect(failure).toMatchObject({ name: 'AuthError', code: 'url_refused' });
    expect(tokenPosts()).toEqual([]);
  });

  it('awaits an asynchronous allowUrl', async () => {
    const failure = await call({ allowUrl: async (url) => url.pathname !== '/.well-known/oauth-authorization-server' });
    expect(failure).toMatchObject({ name: 'AuthError', code: 'url_refused' });
    expect(server.seen.map((request) => request.path)).not.toContain('/.well-known/oauth-authorization-server');
  });
});

describe('metadata redirects', () => {
  it('does not follow a redirect from a metadata URL', async () => {
    const local = await startHostileOAuthServer();
    try {
      local.route('/.well-known/oauth-protected-resource/mcp', (_req, res) => {
        res.writeHead(302, { location: `${local.base}/moved-prm` }).end();
      });
      local.route('/moved-prm', (_req, res) =>
        json(res, 200, { resource: `${local.base}/mcp`, authorization_servers: [local.base] }),
      );
      const auth = new OAuthProvider({
        grant: { type: 'client_credentials', issuer: local.base, client: { client_id: 'm', client_secret: 'x' } },
      });
      // The redirect counts as no resource metadata: the pinned issuer's own metadata serves, and the call goes through.
      const response = await callThrough(`${local.base}/mcp`, auth);
      expect(response.status).toBe(200);
      expect(local.seen.map((request) => request.path)).toContain('/token');
      expect(local.seen.map((request) => request.path)).toContain('/.well-known/oauth-protected-resource/mcp');
      expect(local.seen.map((request) => request.path)).not.toContain('/moved-prm');
    } finally {
      await local.close();
    }
  });
});
