/**
 * What one scenario's authorization server has handed out: registered
 * clients, authorization codes, access and refresh tokens. The protected MCP
 * server of the same scenario checks tokens against it directly (the in-process
 * equivalent of token introspection), so tokens stay opaque to the client.
 */

/**
 * @typedef {object} ClientRecord
 * @property {string} client_id
 * @property {string} [client_secret]
 * @property {'none' | 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt'} token_endpoint_auth_method
 * @property {string[]} redirect_uris exact URIs; empty accepts any loopback or https URI
 * @property {string[]} grant_types
 * @property {{ keys: Record<string, unknown>[] }} [jwks]
 * @property {string} [jwks_uri]
 * @property {'pre-registered' | 'dcr' | 'cimd'} source
 */

/**
 * @typedef {object} CodeRecord
 * @property {string} client_id
 * @property {string} redirect_uri
 * @property {string} code_challenge
 * @property {string} code_challenge_method
 * @property {string[]} scope
 * @property {string | undefined} resource
 * @property {number} expiresAt
 * @property {boolean} used
 * @property {string[]} issued tokens minted from this code (revoked if the code is replayed)
 */

/**
 * @typedef {object} TokenRecord
 * @property {'access' | 'refresh'} kind
 * @property {string} client_id
 * @property {string[]} scope
 * @property {string | undefined} resource the audience (RFC 8707); undefined when the client sent none
 * @property {number} expiresAt epoch ms (Infinity for refresh tokens)
 * @property {boolean} active false once rotated, replayed or revoked
 */

/** How long an authorization code lives (RFC 6749 § 4.1.2 recommends at most 10 minutes). */
const CODE_TTL_MS = 60_000;

/** Unguessable token text, base64url. */
export function randomToken(bytes = 24) {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('base64url');
}

/** Creates an empty store. */
export function createGrantStore() {
  /** @type {Map<string, ClientRecord>} */
  const clients = new Map();
  /** @type {Map<string, CodeRecord>} */
  const codes = new Map();
  /** @type {Map<string, TokenRecord>} */
  const tokens = new Map();
  /** @type {Set<string>} client-assertion `jti`s seen (replay protection) */
  const jtis = new Set();

  return {
    clients,
    codes,
    jtis,
    /**
     * @param {Omit<CodeRecord, 'expiresAt' | 'used' | 'issued'>} record
     * @returns {string} the code
     */
    issueCode(record) {
      const code = randomToken();
      codes.set(code, { ...record, expiresAt: Date.now() + CODE_TTL_MS, used: false, issued: [] });
      return code;
    },
    /**
     * @param {Omit<TokenRecord, 'kind' | 'expiresAt' | 'active'>} grant
     * @param {number} ttlSeconds access-token lifetime
     * @param {boolean} withRefresh also mint a refresh token
     */
    issueTokens(grant, ttlSeconds, withRefresh) {
      const access = randomToken();
      tokens.set(access, { ...grant, kind: 'access', expiresAt: Date.now() + ttlSeconds * 1000, active: true });
      let refresh;
      if (withRefresh) {
        refresh = randomToken();
        tokens.set(refresh, { ...grant, kind: 'refresh', expiresAt: Number.POSITIVE_INFINITY, active: true });
      }
      return { access, refresh };
    },
    /** @param {string} token */
    token: (token) => tokens.get(token),
    /** @param {string} token */
    revoke(token) {
      const record = tokens.get(token);
      if (record !== undefined) record.active = false;
    },
    /** Every access token now counts as expired (a refresh test without sleeping). */
    expireAccessTokens() {
      for (const record of tokens.values()) if (record.kind === 'access') record.expiresAt = 0;
    },
    /** Every token string ever issued, to spot one in a URL. */
    allTokens: () => [...tokens.keys()],
  };
}

/** @typedef {ReturnType<typeof createGrantStore>} GrantStore */
