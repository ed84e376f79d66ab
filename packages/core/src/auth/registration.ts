import * as v from 'valibot';
import { AuthError } from '../errors/auth-error.js';
import { isLoopback } from '../util/loopback.js';
import type { OAuthAnswer } from './oauth-fetch.js';
import type { OAuthHttp } from './oauth-http.js';
import type { OAuthOptions } from './options.js';
import type { ClientCredentials, TokenEndpointAuthMethod } from './registered-client.js';
import { type AuthorizationServerMetadata, ClientInformationSchema } from './schemas.js';
import { type OAuthStore, storeKeys } from './store.js';
import { oauthError } from './token-endpoint.js';

/** What registration needs to know about this client and the AS it registers with. */
export interface RegistrationContext {
  readonly http: OAuthHttp;
  readonly store: OAuthStore;
  readonly options: OAuthOptions;
  readonly metadata: AuthorizationServerMetadata;
  /** The grant types this client uses, for DCR (`refresh_token` included: 2026-07-28 SHOULD). */
  readonly grantTypes: readonly string[];
}

const AUTH_METHODS: readonly string[] = ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'];

/** A stored DCR client, unless its secret has expired (RFC 7591 §3.2.1: 0 means never). */
function liveClient(value: unknown): ClientCredentials | undefined {
  const parsed = v.safeParse(ClientInformationSchema, value);
  if (!parsed.success) return undefined;
  const expires = parsed.output.client_secret_expires_at;
  if (expires && expires * 1000 <= Date.now()) return undefined;
  return value as ClientCredentials;
}

/**
 * A CIMD client id (MCP 2025-11-25 "Client ID Metadata Documents"): an https URL
 * with a path, used as is where the AS says `client_id_metadata_document_supported`.
 */
function metadataDocumentClient(
  url: string | undefined,
  metadata: AuthorizationServerMetadata,
): ClientCredentials | undefined {
  if (!url || metadata.client_id_metadata_document_supported !== true) return undefined;
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' || parsed.pathname === '/') {
    throw new AuthError('no_client', `clientMetadataUrl must be an https URL with a path, not ${url}`);
  }
  return { client_id: url, token_endpoint_auth_method: 'none' };
}

/**
 * The client to use with this AS, in the order of MCP 2025-11-25 "Client
 * Registration": pre-registered for this issuer, then a Client ID Metadata
 * Document, then a client registered earlier with this issuer, then Dynamic
 * Client Registration. Credentials are bound to the issuer (2026-07-28): a
 * client registered with another AS is never tried here.
 *
 * With a store that has `update`, registration runs inside it: two tabs,
 * Workers or processes signing in at the same moment register once, and the
 * second takes the first's client. Without it both may register, and the later
 * client replaces the earlier one in the store; tokens the earlier one obtained
 * can then not be refreshed (see OAuthProvider), and the user signs in again.
 */
export async function resolveClient(context: RegistrationContext): Promise<ClientCredentials> {
  const { options, metadata, store } = context;
  const existing = await findClient(context);
  if (existing) return existing;
  const endpoint = metadata.registration_endpoint;
  if (endpoint) {
    const key = storeKeys.client(metadata.issuer);
    // Read again under the store's lock: another instance may have registered since findClient looked.
    if (store.update) return store.update(key, (current) => liveClient(current) ?? register(context, endpoint));
    const registered = await register(context, endpoint);
    await store.set(key, registered);
    return registered;
  }
  const others = Object.keys(options.clients ?? {});
  throw new AuthError(
    'no_client',
    `no client for the authorization server ${metadata.issuer}: it offers no Dynamic Client Registration` +
      (metadata.client_id_metadata_document_supported ? '' : ' nor Client ID Metadata Documents') +
      (others.length > 0 ? `, and the pre-registered clients are for other issuers (${others.join(', ')})` : ''),
  );
}

/** The client `resolveClient` would use, short of registering a new one (a refresh needs the same client). */
export async function findClient(
  context: Pick<RegistrationContext, 'options' | 'metadata' | 'store'>,
): Promise<ClientCredentials | undefined> {
  const { options, metadata, store } = context;
  const preRegistered = options.clients?.[metadata.issuer];
  if (preRegistered) return preRegistered;
  const cimd = metadataDocumentClient(options.clientMetadataUrl, metadata);
  if (cimd) return cimd;
  return liveClient(await store.get(storeKeys.client(metadata.issuer)));
}

/** The auth method to ask DCR for: a public client (`none`) unless the AS takes only confidential ones. */
function requestedAuthMethod(metadata: AuthorizationServerMetadata): TokenEndpointAuthMethod {
  const supported = metadata.token_endpoint_auth_methods_supported;
  if (!supported || supported.includes('none')) return 'none';
  const known = supported.find((method) => method !== 'private_key_jwt' && AUTH_METHODS.includes(method));
  return (known as TokenEndpointAuthMethod | undefined) ?? 'none';
}

/** `native` for loopback and custom-scheme redirects, `web` for remote https ones (2026-07-28 DCR). */
function defaultApplicationType(redirectUri: string | undefined): 'web' | 'native' {
  if (!redirectUri) return 'native';
  const url = new URL(redirectUri);
  return url.protocol === 'https:' && !isLoopback(url) ? 'web' : 'native';
}

/**
 * RFC 7591 Dynamic Client Registration. A refusal over redirect URIs is retried
 * once with the other `application_type` (2026-07-28 MAY), unless the app chose it.
 */
async function register(context: RegistrationContext, endpoint: string): Promise<ClientCredentials> {
  const { options, metadata, grantTypes, http } = context;
  const chosenType = options.clientMetadata?.application_type;
  const first = chosenType ?? defaultApplicationType(options.redirectUri);
  const method = requestedAuthMethod(metadata);
  const body = (applicationType: 'web' | 'native') => ({
    client_name: 'MCP client',
    grant_types: grantTypes,
    response_types: grantTypes.includes('authorization_code') ? ['code'] : [],
    token_endpoint_auth_method: method,
    ...(options.redirectUri && { redirect_uris: [options.redirectUri] }),
    ...options.clientMetadata,
    application_type: applicationType,
  });
  const url = await http.check(endpoint, 'registration');
  const post = (applicationType: 'web' | 'native') =>
    http.post(
      url,
      'registration',
      new Headers({ 'content-type': 'application/json', accept: 'application/json' }),
      JSON.stringify(body(applicationType)),
    );
  let answer = await post(first);
  if (!ok(answer) && chosenType === undefined) {
    const error = oauthError(answer.body);
    if (error.error === 'invalid_redirect_uri' || error.error === 'invalid_client_metadata') {
      answer = await post(first === 'native' ? 'web' : 'native');
    }
  }
  if (!ok(answer)) {
    const error = oauthError(answer.body);
    const detail = error.error
      ? `: ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`
      : '';
    throw new AuthError(
      'registration_failed',
      `registration at ${url.href} failed with HTTP ${answer.status}${detail}`,
      {
        ...(error.error !== undefined && { oauthError: error.error }),
      },
    );
  }
  const parsed = v.safeParse(ClientInformationSchema, answer.body);
  if (!parsed.success) throw new AuthError('registration_failed', `registration at ${url.href} returned no client_id`);
  const info = parsed.output;
  const registeredMethod = info.token_endpoint_auth_method;
  return {
    client_id: info.client_id,
    ...(info.client_secret !== undefined && { client_secret: info.client_secret }),
    ...(info.client_secret_expires_at !== undefined && { client_secret_expires_at: info.client_secret_expires_at }),
    ...(registeredMethod && AUTH_METHODS.includes(registeredMethod)
      ? { token_endpoint_auth_method: registeredMethod as TokenEndpointAuthMethod }
      : info.client_secret === undefined && { token_endpoint_auth_method: method }),
  };
}

function ok(answer: OAuthAnswer): boolean {
  return answer.status >= 200 && answer.status < 300;
}
