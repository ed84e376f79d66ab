import * as v from 'valibot';

const Scopes = v.array(v.pipe(v.string(), v.regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/)));
const AuthMethod = v.picklist(['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt']);

/** A client the authorization server knows before any registration (2025-11-25 § Client Registration: pre-registration). */
const ClientSchema = v.strictObject({
  client_id: v.string(),
  client_secret: v.optional(v.string()),
  token_endpoint_auth_method: v.optional(AuthMethod, 'client_secret_basic'),
  /** exact redirect URIs; empty = any loopback or https URI is accepted */
  redirect_uris: v.optional(v.array(v.string()), []),
  /** public keys for private_key_jwt */
  jwks: v.optional(v.strictObject({ keys: v.array(v.record(v.string(), v.unknown())) })),
  grant_types: v.optional(v.array(v.string()), ['authorization_code', 'refresh_token', 'client_credentials']),
});

/**
 * One auth scenario: how the authorization server (AS) and the protected MCP
 * server behave. Every field is optional; the defaults give a 2025-11-25 /
 * 2026-07-28 conforming pair (PRM at the path-inserted URL, RFC 8414 metadata,
 * S256, `iss` in the authorization response, DCR on).
 */
export const ScenarioConfigSchema = v.strictObject({
  // ── authorization server ──
  /** '' = issuer is the AS origin; '/tenant1' = issuer with a path (2025-11-25 § Authorization Server Metadata Discovery) */
  issuerPath: v.optional(v.pipe(v.string(), v.regex(/^(\/[\w.-]+)*$/)), ''),
  /** which well-known documents exist: RFC 8414, OIDC inserted (`/.well-known/openid-configuration/<path>`), OIDC appended (`<path>/.well-known/openid-configuration`) */
  metadata: v.optional(v.array(v.picklist(['oauth', 'oidc', 'oidc-appended'])), ['oauth']),
  /** the `issuer` the documents state: the real one, another origin, or the real one plus a trailing slash */
  issuerInMetadata: v.optional(v.picklist(['correct', 'wrong', 'trailing-slash']), 'correct'),
  /** `code_challenge_methods_supported`; null leaves the field out (the client must refuse) */
  pkceMethods: v.optional(v.nullable(v.array(v.picklist(['S256', 'plain']))), ['S256']),
  /** `authorization_response_iss_parameter_supported` (RFC 9207) */
  issSupported: v.optional(v.boolean(), true),
  /** the `iss` the authorization response carries */
  issInResponse: v.optional(v.picklist(['correct', 'wrong', 'missing', 'trailing-slash']), 'correct'),
  /** what the auto-approving /authorize does */
  authorizeOutcome: v.optional(v.picklist(['approve', 'deny']), 'approve'),
  /** a `registration_endpoint` (RFC 7591) */
  dcr: v.optional(v.boolean(), true),
  /** OIDC redirect-URI rules at DCR: `web` needs https non-loopback, `native` loopback or a custom scheme */
  dcrRedirectRules: v.optional(v.picklist(['any', 'oidc']), 'any'),
  /** `client_id_metadata_document_supported` (CIMD) */
  cimd: v.optional(v.boolean(), false),
  /** pre-registered clients */
  clients: v.optional(v.array(ClientSchema), []),
  /** the AS's `scopes_supported` */
  asScopes: v.optional(Scopes, ['mcp:read', 'mcp:write', 'offline_access']),
  /** resources besides the scenario's MCP endpoint the AS issues tokens for (tokens the MCP server must refuse: audience) */
  otherResources: v.optional(v.array(v.string()), []),
  /** scope granted when the request names none */
  defaultScope: v.optional(v.string(), 'mcp:read'),
  /** access-token lifetime in seconds (`expires_in`) */
  accessTokenTtl: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 3600),
  /** issue refresh tokens (rotated on every use) on the authorization-code grant */
  refreshTokens: v.optional(v.boolean(), true),

  // ── protected MCP server ──
  /** the MCP endpoint's path on its origin */
  mcpPath: v.optional(v.pipe(v.string(), v.regex(/^(\/[\w.-]+)+$/)), '/mcp'),
  /** the reference-server mode behind it (test-servers/http modes) */
  inner: v.optional(v.picklist(['stateful', 'stateless', 'resumable', 'v2']), 'stateful'),
  /** where PRM (RFC 9728) is served: path-inserted well-known, root well-known, or only a custom path named in the header */
  prmAt: v.optional(v.picklist(['path', 'root', 'custom']), 'path'),
  /** put `resource_metadata` in WWW-Authenticate (always true for `custom`) */
  resourceMetadataInHeader: v.optional(v.boolean(), true),
  /** `scope` in the 401 challenge; null leaves it out */
  challengeScope: v.optional(v.nullable(v.string()), 'mcp:read'),
  /** PRM `scopes_supported`; null leaves it out */
  prmScopes: v.optional(v.nullable(Scopes), ['mcp:read', 'mcp:write']),
  /** PRM `authorization_servers`; default: this scenario's issuer */
  authorizationServers: v.optional(v.array(v.string())),
  /** scopes every MCP request needs */
  requiredScopes: v.optional(Scopes, ['mcp:read']),
  /** extra scope per tool name, answered 403 insufficient_scope without it (step-up) */
  toolScopes: v.optional(v.record(v.string(), v.string()), {}),
  /** 2025-03-26: no PRM, a bare 401; AS at the MCP origin with metadata, or only default endpoints */
  legacy: v.optional(v.picklist(['off', 'metadata', 'defaults']), 'off'),
});

/** @typedef {v.InferOutput<typeof ScenarioConfigSchema>} ScenarioConfig */
/** @typedef {v.InferOutput<typeof ClientSchema>} PreRegisteredClient */

/**
 * Validates a scenario posted to the control API (valibot, at the edge).
 * @param {unknown} value
 * @returns {{ ok: true, config: ScenarioConfig } | { ok: false, message: string }}
 */
export function parseScenarioConfig(value) {
  const result = v.safeParse(ScenarioConfigSchema, value ?? {});
  if (result.success) return { ok: true, config: result.output };
  const message = result.issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`).join('; ');
  return { ok: false, message };
}
