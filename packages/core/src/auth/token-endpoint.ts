import * as v from 'valibot';
import { AuthError } from '../errors/auth-error.js';
import { encodeBase64 } from '../util/base64.js';
import { importSigningKey, signJwt } from './jwt.js';
import type { OAuthAnswer } from './oauth-fetch.js';
import type { OAuthHttp } from './oauth-http.js';
import { randomToken } from './random.js';
import type { ClientCredentials, TokenEndpointAuthMethod } from './registered-client.js';
import {
  type AuthorizationServerMetadata,
  OAuthErrorResponseSchema,
  type TokenResponse,
  TokenResponseSchema,
} from './schemas.js';

/** An AS error body (RFC 6749 §5.2), as far as it could be read. */
export interface OAuthErrorBody {
  readonly error?: string;
  readonly error_description?: string;
}

/**
 * Everything a token request needs. `headers` and `retry` are the seam for
 * sender-constrained tokens: DPoP adds a proof per attempt, and asks for one more
 * attempt when the AS answers `use_dpop_nonce` (RFC 9449 §8).
 */
export interface TokenEndpointContext {
  /** Requests for the MCP server the tokens are for (URL rules and bounds). */
  readonly http: OAuthHttp;
  readonly metadata: AuthorizationServerMetadata;
  readonly client: ClientCredentials;
  readonly headers?: (tokenEndpoint: URL) => Promise<Readonly<Record<string, string>>>;
  readonly retry?: (answer: OAuthAnswer, error: OAuthErrorBody) => boolean | Promise<boolean>;
}

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const ASSERTION_LIFETIME_S = 300;

/**
 * How this client authenticates at this AS: what the registration said, else
 * `private_key_jwt` with a key, basic or post with a secret (basic unless the AS
 * lists only post; RFC 8414 §2 defaults the list to basic), else `none`.
 */
export function chooseAuthMethod(
  client: ClientCredentials,
  metadata: AuthorizationServerMetadata,
): TokenEndpointAuthMethod {
  if (client.token_endpoint_auth_method) return client.token_endpoint_auth_method;
  if (client.private_key) return 'private_key_jwt';
  if (client.client_secret === undefined) return 'none';
  const supported = metadata.token_endpoint_auth_methods_supported;
  if (supported && !supported.includes('client_secret_basic') && supported.includes('client_secret_post')) {
    return 'client_secret_post';
  }
  return 'client_secret_basic';
}

/** RFC 6749 §2.3.1: id and secret are form-encoded before they go into the Basic header. */
function basicCredentials(id: string, secret: string): string {
  const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  return `Basic ${encodeBase64(`${encode(id)}:${encode(secret)}`)}`;
}

/** Adds client authentication to a token request (RFC 6749 §2.3, RFC 7523 §2.2). */
async function authenticate(
  client: ClientCredentials,
  metadata: AuthorizationServerMetadata,
  body: URLSearchParams,
  headers: Headers,
): Promise<void> {
  const method = chooseAuthMethod(client, metadata);
  switch (method) {
    case 'client_secret_basic':
      headers.set('authorization', basicCredentials(client.client_id, client.client_secret ?? ''));
      return;
    case 'client_secret_post':
      body.set('client_id', client.client_id);
      body.set('client_secret', client.client_secret ?? '');
      return;
    case 'private_key_jwt': {
      if (!client.private_key)
        throw new AuthError('no_client', `client ${client.client_id} has no private_key for private_key_jwt`);
      const signing = await importSigningKey(client.private_key, client.alg ?? 'ES256');
      const now = Math.floor(Date.now() / 1000);
      const assertion = await signJwt(
        signing,
        {
          iss: client.client_id,
          sub: client.client_id,
          aud: metadata.issuer,
          iat: now,
          exp: now + ASSERTION_LIFETIME_S,
          jti: randomToken(16),
        },
        client.kid ? { kid: client.kid } : {},
      );
      body.set('client_id', client.client_id);
      body.set('client_assertion_type', ASSERTION_TYPE);
      body.set('client_assertion', assertion);
      return;
    }
    case 'none':
      body.set('client_id', client.client_id);
  }
}

/**
 * POSTs a token request (any grant: `params` holds `grant_type` and its fields)
 * with client authentication, and validates the answer. Never follows a redirect:
 * the body holds codes, secrets or refresh tokens. Errors carry the AS's `error`
 * and `error_description`, never a credential.
 */
export async function requestToken(
  context: TokenEndpointContext,
  params: Readonly<Record<string, string>>,
): Promise<TokenResponse> {
  const { metadata, http } = context;
  const endpoint = await http.check(metadata.token_endpoint, 'token');
  for (let attempt = 0; ; attempt++) {
    const body = new URLSearchParams(params);
    const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' });
    await authenticate(context.client, metadata, body, headers);
    if (context.headers)
      for (const [name, value] of Object.entries(await context.headers(endpoint))) headers.set(name, value);
    const answer = await http.post(endpoint, 'token', headers, body.toString());
    if (answer.status >= 200 && answer.status < 300) {
      const parsed = v.safeParse(TokenResponseSchema, answer.body);
      if (parsed.success) return parsed.output;
      throw new AuthError('token_request_failed', `the token endpoint ${endpoint.href} sent an invalid token response`);
    }
    const error = oauthError(answer.body);
    if (attempt === 0 && context.retry && (await context.retry(answer, error))) continue;
    const detail = error.error ? `${error.error}${error.error_description ? `: ${error.error_description}` : ''}` : '';
    throw new AuthError(
      'token_request_failed',
      `the token endpoint ${endpoint.href} refused the ${params.grant_type ?? ''} request (HTTP ${answer.status}${detail ? `, ${detail}` : ''})`,
      error.error === undefined ? {} : { oauthError: error.error },
    );
  }
}

/** The `error` fields of a refusal body, if it has them. */
export function oauthError(json: unknown): OAuthErrorBody {
  const parsed = v.safeParse(OAuthErrorResponseSchema, json);
  if (!parsed.success) return {};
  const { error, error_description } = parsed.output;
  return error_description === undefined ? { error } : { error, error_description };
}
