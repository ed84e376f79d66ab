import { describe, expect, it } from 'vitest';
import { canonicalResource, resourceCovers } from '../../src/auth/canonical-resource.js';
import { authorizationServerMetadataUrls, resourceMetadataUrls } from '../../src/auth/discovery.js';
import { codeFromCallback } from '../../src/auth/grants/authorization-code.js';
import { s256Challenge } from '../../src/auth/pkce.js';
import { selectScope, unionScopes } from '../../src/auth/scope.js';
import { chooseAuthMethod } from '../../src/auth/token-endpoint.js';
import { authChallenge, parseWwwAuthenticate } from '../../src/auth/www-authenticate.js';
import { AuthError } from '../../src/index.js';

describe('WWW-Authenticate', () => {
  it('reads a Bearer challenge with quoted and bare parameters', () => {
    const header =
      'Bearer realm="mcp", error="insufficient_scope", scope="files:read files:write", ' +
      'resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", error_description="needs \\"write\\""';
    expect(authChallenge(header)).toEqual({
      scheme: 'Bearer',
      realm: 'mcp',
      error: 'insufficient_scope',
      scope: 'files:read files:write',
      resourceMetadata: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
      errorDescription: 'needs "write"',
    });
  });

  it('splits several challenges and prefers Bearer', () => {
    const header = 'Basic realm="x", Newauth token68value==, bearer error=invalid_token, DPoP algs="ES256"';
    expect(parseWwwAuthenticate(header).map((challenge) => challenge.scheme)).toEqual([
      'Basic',
      'Newauth',
      'bearer',
      'DPoP',
    ]);
    expect(authChallenge(header)).toEqual({ scheme: 'bearer', error: 'invalid_token' });
  });

  it('has nothing to say without a header', () => {
    expect(authChallenge(null)).toBeUndefined();
    expect(authChallenge('')).toBeUndefined();
  });
});

describe('canonical resource (RFC 8707)', () => {
  it('lower-cases scheme and host, drops the fragment and a bare slash, keeps the path', () => {
    expect(canonicalResource('HTTPS://MCP.Example.com/mcp#frag')).toBe('https://mcp.example.com/mcp');
    expect(canonicalResource('https://mcp.example.com/')).toBe('https://mcp.example.com');
    expect(canonicalResource('https://mcp.example.com:8443')).toBe('https://mcp.example.com:8443');
  });

  it('accepts PRM for the server or a path above it, and nothing on another origin', () => {
    expect(resourceCovers('https://mcp.example.com/mcp', 'https://mcp.example.com/mcp')).toBe(true);
    expect(resourceCovers('https://mcp.example.com', 'https://mcp.example.com/mcp')).toBe(true);
    expect(resourceCovers('https://mcp.example.com/mc', 'https://mcp.example.com/mcp')).toBe(false);
    expect(resourceCovers('https://evil.example.com/mcp', 'https://mcp.example.com/mcp')).toBe(false);
    expect(resourceCovers('not a url', 'https://mcp.example.com/mcp')).toBe(false);
  });
});

describe('discovery URL order (2025-11-25)', () => {
  it('tries the challenge URL, then path-inserted, then root PRM', () => {
    const server = new URL('https://host.example/public/mcp');
    expect(resourceMetadataUrls(server, 'https://host.example/custom.json')).toEqual([
      'https://host.example/custom.json',
      'https://host.example/.well-known/oauth-protected-resource/public/mcp',
      'https://host.example/.well-known/oauth-protected-resource',
    ]);
    expect(resourceMetadataUrls(new URL('https://host.example/'))).toEqual([
      'https://host.example/.well-known/oauth-protected-resource',
    ]);
  });

  it('tries RFC 8414 then OIDC, path-inserted first, for issuers with and without a path', () => {
    expect(authorizationServerMetadataUrls('https://auth.example.com/tenant1')).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server/tenant1',
      'https://auth.example.com/.well-known/openid-configuration/tenant1',
      'https://auth.example.com/tenant1/.well-known/openid-configuration',
    ]);
    expect(authorizationServerMetadataUrls('https://auth.example.com')).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server',
      'https://auth.example.com/.well-known/openid-configuration',
    ]);
  });
});

describe('PKCE', () => {
  it('computes the S256 challenge of RFC 7636 appendix B', async () => {
    expect(await s256Challenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });
});

describe('authorization response validation (RFC 9207)', () => {
  const issuer = 'https://auth.example.com';
  const expected = (supported?: boolean) => ({
    state: 's1',
    issuer,
    metadata: supported === undefined ? {} : { authorization_response_iss_parameter_supported: supported },
  });
  const callback = (query: string) => new URL(`http://localhost:3000/callback?${query}`);
  const codeOf = (query: string, supported?: boolean) => () => codeFromCallback(callback(query), expected(supported));
  const refusal = (code: string) => expect.objectContaining({ name: 'AuthError', code });

  it('accepts a matching iss, and no iss when none is advertised', () => {
    expect(codeOf(`code=c&state=s1&iss=${encodeURIComponent(issuer)}`, true)()).toBe('c');
    expect(codeOf('code=c&state=s1')()).toBe('c');
    expect(codeOf('code=c&state=s1', false)()).toBe('c');
  });

  it('rejects a missing iss when advertised, and any different iss even when not advertised', () => {
    expect(codeOf('code=c&state=s1', true)).toThrow(refusal('issuer_mismatch'));
    expect(codeOf('code=c&state=s1&iss=https%3A%2F%2Fevil.example.com')).toThrow(refusal('issuer_mismatch'));
  });

  it('compares iss without normalising: case, trailing slash, default port and escapes all differ', () => {
    for (const variant of [
      'https://AUTH.example.com',
      `${issuer}/`,
      'https://auth.example.com:443',
      'https://auth%2Eexample.com',
    ]) {
      expect(codeOf(`code=c&state=s1&iss=${encodeURIComponent(variant)}`, true)).toThrow(refusal('issuer_mismatch'));
    }
  });

  it('discards a callback with a missing or different state before anything else', () => {
    expect(codeOf('code=c&iss=x')).toThrow(refusal('invalid_state'));
    expect(codeOf('code=c&state=s2')).toThrow(refusal('invalid_state'));
  });

  it('shows the AS error only once iss checked out', () => {
    expect(codeOf('error=access_denied&error_description=no&state=s1&iss=https%3A%2F%2Fevil.example.com')).toThrow(
      refusal('issuer_mismatch'),
    );
    let denied: unknown;
    try {
      codeOf('error=access_denied&error_description=no&state=s1')();
    } catch (error) {
      denied = error;
    }
    expect(denied).toBeInstanceOf(AuthError);
    expect(denied).toMatchObject({ code: 'authorization_denied', oauthError: 'access_denied' });
  });
});

describe('scope selection', () => {
  const server = { issuer: 'https://as', token_endpoint: 'https://as/token' };
  const prm = { resource: 'https://mcp', scopes_supported: ['a', 'b'] };

  it('prefers the challenge, then configured scope, then every PRM scope, else none', () => {
    const base = { configured: undefined, previous: undefined, resource: prm, server };
    expect(selectScope({ ...base, challenge: 'x' })).toBe('x');
    expect(selectScope({ ...base, challenge: undefined, configured: 'c' })).toBe('c');
    expect(selectScope({ ...base, challenge: undefined })).toBe('a b');
    expect(selectScope({ ...base, challenge: undefined, resource: undefined })).toBeUndefined();
  });

  it('keeps earlier scopes on step-up and adds offline_access only where the AS lists it', () => {
    const withOffline = { ...server, scopes_supported: ['a', 'offline_access'] };
    const input = { challenge: 'write', configured: undefined, previous: 'read', resource: undefined };
    expect(selectScope({ ...input, server })).toBe('read write');
    expect(selectScope({ ...input, server: withOffline })).toBe('read write offline_access');
    expect(unionScopes('a b', undefined, 'b  c')).toBe('a b c');
  });
});

describe('token endpoint client authentication', () => {
  const metadata = (methods?: string[]) => ({
    issuer: 'https://as',
    token_endpoint: 'https://as/token',
    ...(methods && { token_endpoint_auth_methods_supported: methods }),
  });

  it('uses the registered method, else picks by what the client holds and the AS lists', () => {
    expect(chooseAuthMethod({ client_id: 'c', token_endpoint_auth_method: 'client_secret_post' }, metadata())).toBe(
      'client_secret_post',
    );
    expect(chooseAuthMethod({ client_id: 'c' }, metadata())).toBe('none');
    expect(chooseAuthMethod({ client_id: 'c', client_secret: 's' }, metadata())).toBe('client_secret_basic');
    expect(chooseAuthMethod({ client_id: 'c', client_secret: 's' }, metadata(['client_secret_post']))).toBe(
      'client_secret_post',
    );
    expect(chooseAuthMethod({ client_id: 'c', private_key: { kty: 'EC' } }, metadata())).toBe('private_key_jwt');
  });
});
