/**
 * Types of the OAuth test servers (serve.mjs), for TypeScript tests anywhere in
 * the repository. The shapes are the ones test-servers/README.md documents.
 */

/** A scenario's config: see scenario-config.mjs (all optional). */
export interface AuthScenarioConfig {
  issuerPath?: string;
  metadata?: Array<'oauth' | 'oidc' | 'oidc-appended'>;
  issuerInMetadata?: 'correct' | 'wrong' | 'trailing-slash';
  pkceMethods?: Array<'S256' | 'plain'> | null;
  issSupported?: boolean;
  issInResponse?: 'correct' | 'wrong' | 'missing' | 'trailing-slash';
  authorizeOutcome?: 'approve' | 'deny';
  dcr?: boolean;
  dcrRedirectRules?: 'any' | 'oidc';
  cimd?: boolean;
  clients?: Array<{
    client_id: string;
    client_secret?: string;
    token_endpoint_auth_method?: 'none' | 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
    redirect_uris?: string[];
    jwks?: { keys: Record<string, unknown>[] };
    grant_types?: string[];
  }>;
  asScopes?: string[];
  otherResources?: string[];
  defaultScope?: string;
  accessTokenTtl?: number;
  refreshTokens?: boolean;
  mcpPath?: string;
  inner?: 'stateful' | 'stateless' | 'resumable' | 'v2';
  prmAt?: 'path' | 'root' | 'custom';
  resourceMetadataInHeader?: boolean;
  challengeScope?: string | null;
  prmScopes?: string[] | null;
  authorizationServers?: string[];
  requiredScopes?: string[];
  toolScopes?: Record<string, string>;
  legacy?: 'off' | 'metadata' | 'defaults';
}

export interface AuthScenarioInfo {
  id: string;
  /** The protected MCP endpoint, also the RFC 8707 resource. */
  mcp: string;
  issuer: string;
  /** The AS origin (the MCP origin in legacy scenarios). */
  as: string;
  prm: string | null;
}

export interface RecordedAuthRequest {
  server: 'as' | 'mcp';
  httpMethod: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  form?: Record<string, string>;
  json?: unknown;
  rpcMethod?: string;
  tool?: string;
  status?: number;
  error?: string;
}

export interface AuthStats {
  requests: RecordedAuthRequest[];
  registrations: Array<{ via: 'dcr' | 'cimd'; client_id: string; metadata: Record<string, unknown> }>;
  cimdFetches: string[];
  tokensInUrls: string[];
}

export interface AuthScenario {
  info(): AuthScenarioInfo;
  stats(): AuthStats;
  /** The fields given replace the current ones. */
  update(changes: AuthScenarioConfig): void;
  /** Every access token issued so far now counts as expired. */
  expireTokens(): void;
  close(): Promise<void>;
}

export interface AuthServers {
  /** Base URL of the control API. */
  control: string;
  /** Throws a TypeError for an invalid config. */
  createScenario(config?: AuthScenarioConfig): Promise<AuthScenario>;
  /** Serves JSON at `<control>/documents/<name>`. */
  setDocument(name: string, document: unknown): void;
  close(): Promise<void>;
}

export function startAuthServers(options?: { port?: number }): Promise<AuthServers>;
