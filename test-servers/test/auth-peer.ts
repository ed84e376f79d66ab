/**
 * Raw-fetch OAuth steps for the auth test-server tests: PKCE, a signed client
 * assertion, registration, the authorization redirect and the token request,
 * written out by hand so the tests prove the servers alone.
 */
import type { AuthScenarioInfo, AuthStats } from '../auth/serve.mjs';

export type Info = AuthScenarioInfo;
export type Stats = AuthStats;
export type Json = Record<string, unknown>;

export const REDIRECT_URI = 'http://127.0.0.1:9/callback';

/** A fresh PKCE pair (RFC 7636 § 4.1-4.2, S256). */
export async function pkce() {
  const verifier = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return { verifier, challenge: Buffer.from(digest).toString('base64url') };
}

/** Reads a JSON answer. */
export async function json(response: Response): Promise<Json> {
  return (await response.json()) as Json;
}

/** GETs JSON, expecting 200. */
export async function getJson(url: string): Promise<Json> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return json(response);
}

/** POSTs a form to the token endpoint. */
export function tokenRequest(endpoint: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
}

/** Registers a client with DCR (RFC 7591). */
export async function register(endpoint: string, metadata: Json = {}) {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'auth test',
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
      ...metadata,
    }),
  });
  return { status: response.status, body: await json(response) };
}

/** Sends the authorization request and returns where the AS redirected (or the refusal). */
export async function authorize(endpoint: string, params: Record<string, string>) {
  const url = new URL(endpoint);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  const response = await fetch(url, { redirect: 'manual' });
  const location = response.headers.get('location');
  return {
    status: response.status,
    callback: location === null ? undefined : new URL(location),
    text: await response.text(),
  };
}

/** The AS metadata of a scenario at its RFC 8414 location (path-inserted for an issuer with a path). */
export function asMetadata(info: Info) {
  const path = new URL(info.issuer).pathname.replace(/^\/$/, '');
  return getJson(`${info.as}/.well-known/oauth-authorization-server${path}`);
}

/**
 * Registration, authorization and the code exchange for a public client, with
 * `resource` on both requests: the tokens a well-behaved client would hold.
 */
export async function codeFlow(info: Info, options: { scope?: string; register?: Json } = {}) {
  const metadata = await asMetadata(info);
  const { body: client } = await register(String(metadata.registration_endpoint), options.register);
  const { verifier, challenge } = await pkce();
  const { callback } = await authorize(String(metadata.authorization_endpoint), {
    response_type: 'code',
    client_id: String(client.client_id),
    redirect_uri: REDIRECT_URI,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st',
    resource: info.mcp,
    ...(options.scope !== undefined && { scope: options.scope }),
  });
  const code = callback?.searchParams.get('code');
  if (!code) throw new Error(`no code: ${callback?.href}`);
  const response = await tokenRequest(String(metadata.token_endpoint), {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
    client_id: String(client.client_id),
    resource: info.mcp,
  });
  if (response.status !== 200) throw new Error(`token request answered ${response.status}: ${await response.text()}`);
  return { client, metadata, tokens: await json(response) };
}

/** An ES256 key pair and a function that signs RFC 7523 client assertions with it. */
export async function assertionSigner(kid = 'k1') {
  const keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const publicJwk = { ...(await crypto.subtle.exportKey('jwk', keys.publicKey)), kid, alg: 'ES256', use: 'sig' };
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  async function sign(claims: Json) {
    const input = `${encode({ alg: 'ES256', typ: 'JWT', kid })}.${encode(claims)}`;
    const signature = await crypto.subtle.sign(
      { name: 'ECDSA', hash: 'SHA-256' },
      keys.privateKey,
      new TextEncoder().encode(input),
    );
    return `${input}.${Buffer.from(signature).toString('base64url')}`;
  }
  return { jwks: { keys: [publicJwk] }, sign };
}

/** The claims of a client assertion for `clientId` at `audience`, valid for a minute. */
export function assertionClaims(clientId: string, audience: string): Json {
  const now = Math.floor(Date.now() / 1000);
  return { iss: clientId, sub: clientId, aud: audience, iat: now, exp: now + 60, jti: crypto.randomUUID() };
}

/** POSTs an MCP initialize with an optional bearer token. */
export function mcpInitialize(url: string, token?: string) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'auth-test', version: '0' } },
    }),
  });
}
