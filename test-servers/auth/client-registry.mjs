/**
 * How the authorization server knows a client, in the order of 2025-11-25
 * § Client Registration: pre-registered (the scenario's `clients`), registered
 * earlier through DCR (RFC 7591), or a Client ID Metadata Document: a
 * `client_id` that is a URL, whose document the AS fetches (when the scenario
 * advertises `client_id_metadata_document_supported`).
 */

/** @typedef {import('./grant-store.mjs').ClientRecord} ClientRecord */
/** @typedef {import('./auth-context.mjs').AuthContext} AuthContext */

/**
 * Whether a redirect URI is acceptable at all (2025-11-25 § Communication
 * Security: localhost or https), or a private-use scheme of a native app.
 * @param {string} uri
 */
export function isAllowedRedirectUri(uri) {
  if (!URL.canParse(uri)) return false;
  const url = new URL(uri);
  if (url.hash !== '') return false;
  if (url.protocol === 'https:') return true;
  if (url.protocol === 'http:') return isLoopback(url.hostname);
  return !['javascript:', 'data:', 'file:', 'vbscript:'].includes(url.protocol);
}

/** @param {string} hostname */
export function isLoopback(hostname) {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
}

/**
 * Finds a client by id, fetching its metadata document for a CIMD client id.
 * @param {AuthContext} context
 * @param {string} clientId
 * @returns {Promise<{ ok: true, client: ClientRecord } | { ok: false, description: string }>}
 */
export async function findClient(context, clientId) {
  const known = context.store.clients.get(clientId);
  if (known !== undefined) return { ok: true, client: known };
  const pre = context.config.clients.find((client) => client.client_id === clientId);
  if (pre !== undefined) {
    const { jwks, client_secret, ...rest } = pre;
    /** @type {ClientRecord} */
    const client = {
      ...rest,
      source: 'pre-registered',
      ...(client_secret !== undefined && { client_secret }),
      ...(jwks !== undefined && { jwks }),
    };
    return { ok: true, client };
  }
  if (context.config.cimd && URL.canParse(clientId)) return fetchClientMetadata(context, clientId);
  return { ok: false, description: 'unknown client_id' };
}

/**
 * CIMD (2025-11-25 § Client ID Metadata Documents): the client id is an https
 * URL with a path (http on loopback is accepted, for tests), its document
 * holds `client_id` (equal to that URL), `client_name` and `redirect_uris`.
 * @param {AuthContext} context
 * @param {string} clientId
 * @returns {Promise<{ ok: true, client: ClientRecord } | { ok: false, description: string }>}
 */
async function fetchClientMetadata(context, clientId) {
  const url = new URL(clientId);
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname));
  if (!secure || url.pathname === '/' || url.hash !== '') {
    return { ok: false, description: 'a client metadata document URL must be https with a path' };
  }
  context.log.cimdFetches.push(clientId);
  let document;
  try {
    const response = await fetch(url, { headers: { accept: 'application/json' }, redirect: 'error' });
    if (!response.ok) return { ok: false, description: `client metadata document answered ${response.status}` };
    document = await response.json();
  } catch (error) {
    return { ok: false, description: `client metadata document unreadable: ${String(error)}` };
  }
  if (document?.client_id !== clientId) {
    return { ok: false, description: 'client metadata document client_id does not equal its URL' };
  }
  if (typeof document.client_name !== 'string' || !Array.isArray(document.redirect_uris)) {
    return { ok: false, description: 'client metadata document needs client_name and redirect_uris' };
  }
  /** @type {ClientRecord} */
  const client = {
    client_id: clientId,
    token_endpoint_auth_method: document.token_endpoint_auth_method ?? 'none',
    redirect_uris: document.redirect_uris.filter((/** @type {unknown} */ uri) => typeof uri === 'string'),
    grant_types: Array.isArray(document.grant_types) ? document.grant_types : ['authorization_code'],
    source: 'cimd',
    ...(document.jwks !== undefined && { jwks: document.jwks }),
    ...(typeof document.jwks_uri === 'string' && { jwks_uri: document.jwks_uri }),
  };
  context.log.registrations.push({ via: 'cimd', client_id: clientId, metadata: document });
  context.store.clients.set(clientId, client);
  return { ok: true, client };
}
