import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LimitError, type OAuthLimits, OAuthProvider } from '../../src/index.js';
import {
  callThrough,
  type HostileOAuthServer,
  json,
  paddedJson,
  startHostileOAuthServer,
} from './hostile-oauth-server.js';

/** OAuth's requests are bounded in size, time and retries, and never follow a redirect. */
let server: HostileOAuthServer;
beforeEach(async () => {
  server = await startHostileOAuthServer();
});
afterEach(() => server.close());

function provider(limits: OAuthLimits = {}): OAuthProvider {
  return new OAuthProvider({
    grant: {
      type: 'client_credentials',
      issuer: server.origin,
      client: { client_id: 'm', client_secret: 'top-s3cret' },
    },
    limits,
  });
}

const failureOf = (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (error: unknown) => error,
  );
const posts = (path: string) => server.seen.filter((request) => request.method === 'POST' && request.path === path);
const gets = (path: string) => server.seen.filter((request) => request.method === 'GET' && request.path === path);

describe('OAuth request bounds', () => {
  it('fails with a LimitError naming limits.maxResponseBytes when protected resource metadata passes it', async () => {
    server.route('/.well-known/oauth-protected-resource/mcp', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(paddedJson(20_000));
    });
    const failure = await failureOf(callThrough(`${server.base}/mcp`, provider({ maxResponseBytes: 4096 })));
    expect(failure).toBeInstanceOf(LimitError);
    expect(failure).toMatchObject({ limit: 'limits.maxResponseBytes', value: 4096 });
    expect((failure as Error).message).toContain('protected resource metadata');
    expect(posts('/token')).toHaveLength(0);
  });

  it('counts decoded bytes: a small gzip token response that inflates past the limit fails', async () => {
    const bomb = gzipSync(paddedJson(4_000_000));
    server.route('/token', (_req, res) => {
      res
        .writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          'content-length': String(bomb.length),
        })
        .end(bomb);
    });
    expect(bomb.length).toBeLessThan(65_536);
    const failure = await failureOf(callThrough(`${server.base}/mcp`, provider({ maxResponseBytes: 65_536 })));
    expect(failure).toBeInstanceOf(LimitError);
    expect(failure).toMatchObject({ limit: 'limits.maxResponseBytes', value: 65_536 });
  });

  it('takes a token response within the default limit', async () => {
    const response = await callThrough(`${server.base}/mcp`, provider());
    expect(response.status).toBe(200);
    expect(posts('/token')).toHaveLength(1);
  });

  it('fails with request_timeout when the token endpoint never answers', async () => {
    server.route('/token', () => {});
    const started = Date.now();
    const failure = await failureOf(callThrough(`${server.base}/mcp`, provider({ timeout: 300 })));
    expect(failure).toMatchObject({ name: 'AuthError', code: 'request_timeout' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('fails with request_timeout when a metadata body stalls after its headers', async () => {
    server.route('/.well-known/oauth-authorization-server', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).write('{"issuer":');
    });
    const started = Date.now();
    const failure = await failureOf(callThrough(`${server.base}/mcp`, provider({ timeout: 300 })));
    expect(failure).toMatchObject({ name: 'AuthError', code: 'request_timeout' });
    // One attempt: a stall is not retried (retries are for network failures and 5xx).
    expect(gets('/.well-known/oauth-authorization-server')).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('does not follow a 307 from the token endpoint to another origin', async () => {
    const elsewhere = await startHostileOAuthServer();
    try {
      server.route('/token', (_req, res) => {
        res.writeHead(307, { location: `${elsewhere.base}/token` }).end();
      });
      const failure = await failureOf(callThrough(`${server.base}/mcp`, provider()));
      expect(failure).toMatchObject({ name: 'AuthError', code: 'token_request_failed' });
      expect((failure as Error).message).toMatch(/redirect \(HTTP 307\), which is not followed/);
      expect((failure as Error).message).not.toContain('top-s3cret');
      expect(elsewhere.seen).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });

  it('retries a metadata GET that met a 503, but never a token POST', async () => {
    let metadataCalls = 0;
    server.route('/.well-known/oauth-authorization-server', (_req, res) => {
      metadataCalls++;
      if (metadataCalls === 1) return json(res, 503, {});
      json(res, 200, { issuer: server.origin, token_endpoint: `${server.origin}/token` });
    });
    server.route('/token', (_req, res) => json(res, 503, { error: 'temporarily_unavailable' }));
    const failure = await failureOf(callThrough(`${server.base}/mcp`, provider()));
    expect(failure).toMatchObject({ name: 'AuthError', code: 'token_request_failed' });
    expect(gets('/.well-known/oauth-authorization-server')).toHaveLength(2);
    expect(posts('/token')).toHaveLength(1);
  });

  it('bounds a metadata GET retried after a 503 by limits.timeout too', async () => {
    server.route('/.well-known/oauth-authorization-server', (_req, res) => {
      if (gets('/.well-known/oauth-authorization-server').length === 1) return json(res, 503, {});
      // The retry stalls: no headers ever.
    });
    const started = Date.now();
    const failure = await failureOf(callThrough(`${server.base}/mcp`, provider({ timeout: 300 })));
    expect(failure).toMatchObject({ name: 'AuthError', code: 'request_timeout' });
    expect((failure as Error).message).toContain('limits.timeout');
    expect(gets('/.well-known/oauth-authorization-server')).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('cancels the body of an answer that comes after the timeout from a fetch that ignores signals', async () => {
    let closed = false;
    server.route('/token', (_req, res) => {
      res.on('close', () => {
        closed = true;
      });
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).write('{"access_token":'), 400);
    });
    const deaf: typeof fetch = (input, init) => fetch(input, { ...init, signal: null });
    const auth = new OAuthProvider({
      fetch: deaf,
      grant: { type: 'client_credentials', issuer: server.origin, client: { client_id: 'm', client_secret: 's' } },
      limits: { timeout: 150 },
    });
    const failure = await failureOf(callThrough(`${server.base}/mcp`, auth));
    expect(failure).toMatchObject({ name: 'AuthError', code: 'request_timeout' });
    // The answer's headers come at 400 ms; its body never ends unless the client lets go of it.
    const until = Date.now() + 3000;
    while (!closed && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed).toBe(true);
  });

  it.each([0, Infinity, 2 ** 31, 2 ** 53])(
    'with limits.timeout %s, a token endpoint 200 ms slow still answers',
    async (timeout) => {
      server.route('/token', (_req, res) => {
        server.issued.add('slow');
        setTimeout(() => json(res, 200, { access_token: 'slow', token_type: 'Bearer' }), 200);
      });
      const response = await callThrough(`${server.base}/mcp`, provider({ timeout }));
      expect(response.status).toBe(200);
      expect(posts('/token')).toHaveLength(1);
    },
  );

  it.each([Infinity, -1, 1.5, Number.NaN])('refuses limits.retries %s at construction', (retries) => {
    expect(() => provider({ retries })).toThrow(RangeError);
    expect(() => provider({ retries })).toThrow(/limits\.retries must be a whole number/);
  });

  it('tries a metadata GET once with limits.retries 0', async () => {
    server.route('/.well-known/oauth-authorization-server', (_req, res) => json(res, 503, {}));
    const failure = await failureOf(callThrough(`${server.base}/mcp`, provider({ retries: 0 })));
    expect(failure).toMatchObject({ name: 'AuthError', code: 'metadata_not_found' });
    expect(gets('/.well-known/oauth-authorization-server')).toHaveLength(1);
  });

  it('gives up on a metadata GET after limits.retries', async () => {
    server.route('/.well-known/oauth-authorization-server', (_req, res) => json(res, 503, {}));
    const failure = await failureOf(callThrough(`${server.base}/mcp`, provider({ retries: 2 })));
    expect(failure).toMatchObject({ name: 'AuthError', code: 'metadata_not_found' });
    expect(gets('/.well-known/oauth-authorization-server')).toHaveLength(3);
  });
});
