import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuthError, type Grant, type OAuthOptions, OAuthProvider } from '../../src/index.js';
import { HttpRequester } from '../../src/transport/http/http-requester.js';

/**
 * An enterprise IdP (`/idp/token`), an authorization server (`/token`) and a
 * protected MCP endpoint (`/mcp`) on one origin. The AS verifies what each
 * grant must send and issues `at-<n>`; the endpoint takes only issued tokens.
 */
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
let server: Server;
let base = '';
let clientKey: CryptoKeyPair;
let clientKeyPem = '';
const issued = new Set<string>();
const seen: {
  token: { params: URLSearchParams; authorization: string | undefined }[];
  idp: URLSearchParams[];
  paths: string[];
} = {
  token: [],
  idp: [],
  paths: [],
};

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

function issue(res: ServerResponse): void {
  const token = `at-${issued.size + 1}`;
  issued.add(token);
  json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
}

/** Verifies an ES256 client assertion (RFC 7523 §3) with the client's public key. */
async function assertionValid(jwt: string): Promise<boolean> {
  const [header = '', claims = '', signature = ''] = jwt.split('.');
  const payload = JSON.parse(Buffer.from(claims, 'base64url').toString()) as Record<string, unknown>;
  const signed = await crypto.subtle.verify(
    { name: 'ECDSA', hash: 'SHA-256' },
    clientKey.publicKey,
    Buffer.from(signature, 'base64url'),
    new TextEncoder().encode(`${header}.${claims}`),
  );
  return signed && payload.iss === 'machine' && payload.sub === 'machine' && payload.aud === base;
}

async function token(params: URLSearchParams, req: IncomingMessage, res: ServerResponse): Promise<void> {
  seen.token.push({ params, authorization: req.headers.authorization });
  const grant = params.get('grant_type');
  const basic = `Basic ${Buffer.from('machine:s3cret').toString('base64')}`;
  if (grant === 'client_credentials') {
    const assertion = params.get('client_assertion');
    if (req.headers.authorization === basic || (assertion && (await assertionValid(assertion)))) return issue(res);
    return json(res, 401, { error: 'invalid_client' });
  }
  if (grant === JWT_BEARER) {
    const assertion = params.get('assertion');
    if (assertion === 'workload-jwt' || (assertion === 'id-jag-for-alice' && req.headers.authorization === basic))
      return issue(res);
    return json(res, 400, { error: 'invalid_grant', error_description: 'assertion refused' });
  }
  json(res, 400, { error: 'unsupported_grant_type' });
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', base);
  let body = '';
  for await (const chunk of req) body += chunk;
  seen.paths.push(url.pathname);
  switch (url.pathname) {
    case '/.well-known/oauth-protected-resource/mcp':
      return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base] });
    case '/.well-known/oauth-authorization-server':
      return json(res, 200, {
        issuer: base,
        token_endpoint: `${base}/token`,
        grant_types_supported: ['client_credentials'],
      });
    case '/token':
      return token(new URLSearchParams(body), req, res);
    case '/idp/token': {
      const params = new URLSearchParams(body);
      seen.idp.push(params);
      if (params.get('subject_token') !== 'alice-id-token') return json(res, 400, { error: 'invalid_grant' });
      return json(res, 200, {
        access_token: 'id-jag-for-alice',
        issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
        token_type: 'N_A',
      });
    }
    case '/mcp': {
      const presented = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
      if (issued.has(presented)) return json(res, 200, { ok: true });
      return json(
        res,
        401,
        {},
        { 'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` },
      );
    }
  }
  json(res, 404, {});
}

beforeAll(async () => {
  clientKey = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  clientKeyPem = `-----BEGIN PRIVATE KEY-----\n${Buffer.from(await crypto.subtle.exportKey('pkcs8', clientKey.privateKey)).toString('base64')}\n-----END PRIVATE KEY-----`;
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen.token.length = 0;
  seen.idp.length = 0;
  seen.paths.length = 0;
});

/** POSTs to the protected endpoint through the transport's requester, authorized by `grant`. */
async function call(grant: Grant, options: Partial<OAuthOptions> = {}): Promise<Response> {
  const auth = new OAuthProvider({ grant, ...options });
  const requester = new HttpRequester(new URL('/mcp', base), { auth });
  return requester.send({
    method: 'POST',
    url: new URL('/mcp', base),
    headers: new Headers({ 'content-type': 'application/json' }),
    body: '{}',
    signal: new AbortController().signal,
    idempotent: false,
  });
}

describe('machine grants', () => {
  it('gets a client_credentials token with client_secret_basic, resource included, and no user', async () => {
    const response = await call({
      type: 'client_credentials',
      issuer: base,
      client: { client_id: 'machine', client_secret: 's3cret' },
    });
    expect(response.status).toBe(200);
    const [request] = seen.token;
    expect(request?.params.get('grant_type')).toBe('client_credentials');
    expect(request?.params.get('resource')).toBe(`${base}/mcp`);
    expect(request?.params.has('client_secret')).toBe(false);
  });

  it('authenticates client_credentials with a private_key_jwt assertion signed by a PEM key', async () => {
    const client = { client_id: 'machine', private_key: clientKeyPem, alg: 'ES256' };
    expect((await call({ type: 'client_credentials', issuer: base, client })).status).toBe(200);
    expect(seen.token[0]?.params.get('client_assertion_type')).toBe(
      'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    );
  });

  it('refuses client_credentials for a public client before sending anything', async () => {
    const failure = call({ type: 'client_credentials', issuer: base, client: { client_id: 'machine' } });
    await expect(failure).rejects.toMatchObject({ code: 'no_client' });
    expect(seen.token).toHaveLength(0);
  });

  it('redeems a workload JWT with the JWT bearer grant, telling the assertion source its audience', async () => {
    const targets: unknown[] = [];
    const grant: Grant = {
      type: 'jwt_bearer',
      issuer: base,
      client: { client_id: 'workload' },
      assertion: async (target) => {
        targets.push(target);
        return 'workload-jwt';
      },
    };
    expect((await call(grant)).status).toBe(200);
    expect(targets).toEqual([{ issuer: base, tokenEndpoint: `${base}/token`, resource: `${base}/mcp` }]);
    expect(seen.token[0]?.params.get('grant_type')).toBe(JWT_BEARER);
    expect(seen.token[0]?.params.get('client_id')).toBe('workload');
  });

  it('surfaces a refused assertion once, without retrying or switching grants', async () => {
    const grant: Grant = {
      type: 'jwt_bearer',
      issuer: base,
      client: { client_id: 'workload' },
      assertion: async () => 'expired',
    };
    const failure = await call(grant).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AuthError);
    expect(failure).toMatchObject({ code: 'token_request_failed', oauthError: 'invalid_grant' });
    expect(String((failure as Error).message)).not.toContain('expired');
    expect(seen.token).toHaveLength(1);
  });

  it('exchanges the SSO token for an ID-JAG at the IdP, then redeems it at the MCP authorization server', async () => {
    const grant: Grant = {
      type: 'token_exchange',
      issuer: [base],
      subjectToken: async () => 'alice-id-token',
      idp: { issuer: `${base}/idp`, tokenEndpoint: `${base}/idp/token`, client: { client_id: 'idp-client' } },
      client: { client_id: 'machine', client_secret: 's3cret' },
    };
    expect((await call(grant)).status).toBe(200);
    const [exchange] = seen.idp;
    expect(Object.fromEntries(exchange ?? [])).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      audience: base,
      resource: `${base}/mcp`,
      subject_token: 'alice-id-token',
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      client_id: 'idp-client',
    });
    expect(seen.token[0]?.params.get('assertion')).toBe('id-jag-for-alice');
  });

  it('sends nothing to an authorization server other than the one the grant is pinned to', async () => {
    const grant: Grant = {
      type: 'jwt_bearer',
      issuer: 'https://as.example',
      assertion: async () => 'workload-jwt',
    };
    await expect(call(grant)).rejects.toMatchObject({ code: 'issuer_mismatch' });
    expect(seen.token).toHaveLength(0);
  });

  it('refuses every machine grant without an issuer (issuer_required), sending nothing to the authorization server', async () => {
    const unpinned = [
      { type: 'client_credentials', client: { client_id: 'machine', client_secret: 's3cret' } },
      { type: 'jwt_bearer', assertion: async () => 'workload-jwt' },
      {
        type: 'token_exchange',
        subjectToken: async () => 'alice-id-token',
        idp: { tokenEndpoint: `${base}/idp/token`, client: { client_id: 'idp-client' } },
      },
    ];
    for (const grant of unpinned) {
      // What a JavaScript caller (no type check) can pass.
      const failure = await call(grant as unknown as Grant).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AuthError);
      expect(failure).toMatchObject({ code: 'issuer_required' });
      expect((failure as Error).message).toContain('grant.issuer');
    }
    expect(seen.token).toEqual([]);
    expect(seen.idp).toEqual([]);
    // The MCP server and its PRM only: not even the authorization server's metadata was asked for.
    expect(new Set(seen.paths)).toEqual(new Set(['/mcp', '/.well-known/oauth-protected-resource/mcp']));
  });

  it('takes a list of issuers, or a test each issuer must pass', async () => {
    const listed: Grant = {
      type: 'jwt_bearer',
      issuer: ['https://as.example', base],
      client: { client_id: 'workload' },
      assertion: async () => 'workload-jwt',
    };
    expect((await call(listed)).status).toBe(200);
    const asked: string[] = [];
    const pinnedByTest: Grant = {
      type: 'jwt_bearer',
      issuer: (issuer) => {
        asked.push(issuer);
        return issuer === base;
      },
      client: { client_id: 'workload' },
      assertion: async () => 'workload-jwt',
    };
    expect((await call(pinnedByTest)).status).toBe(200);
    expect(asked).toContain(base);
  });
});
