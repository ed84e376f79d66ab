import { bearerChallenge } from './bearer-challenge.mjs';

/** @typedef {import('./auth-context.mjs').AuthContext} AuthContext */
/** @typedef {import('./request-log.mjs').RecordedRequest} RecordedRequest */

/** Where PRM lives in a `custom` scenario: only the 401's `resource_metadata` leads there. */
const CUSTOM_PRM_PATH = '/meta/protected-resource.json';

/**
 * The PRM URL of a scenario (RFC 9728 § 3.1: path-inserted well-known, or the
 * root one, or a custom location), or undefined in a 2025-03-26 scenario.
 * @param {AuthContext} context
 */
export function prmUrl(context) {
  const { config } = context;
  if (config.legacy !== 'off') return undefined;
  const path = {
    path: `/.well-known/oauth-protected-resource${config.mcpPath}`,
    root: '/.well-known/oauth-protected-resource',
    custom: CUSTOM_PRM_PATH,
  }[config.prmAt];
  return `${context.mcpOrigin}${path}`;
}

/**
 * The protected MCP server (2025-11-25 § Authorization, as a resource server):
 * PRM at the scenario's location; the MCP endpoint answers 401 with a Bearer
 * challenge without a valid token (unknown, expired, or issued for another
 * resource: RFC 8707 audience), 403 `insufficient_scope` when the token lacks
 * a required scope or a tool's extra scope (step-up), and otherwise hands the
 * request to the reference server behind (`inner`).
 * @param {AuthContext} context
 * @param {(request: Request) => Promise<Response>} inner the modes handler (http/modes.mjs)
 * @returns {(request: Request, entry: RecordedRequest) => Promise<Response | undefined>}
 */
export function createProtectedResource(context, inner) {
  return async (request, entry) => {
    const url = new URL(request.url);
    const prm = prmUrl(context);
    if (prm !== undefined && url.pathname === new URL(prm).pathname && request.method === 'GET') {
      return Response.json(prmDocument(context));
    }
    if (url.pathname !== context.config.mcpPath) return undefined;

    const body = request.method === 'POST' ? await request.text() : undefined;
    const message = parseMessage(body);
    if (typeof message?.method === 'string') entry.rpcMethod = message.method;
    const tool = message?.method === 'tools/call' ? message.params?.name : undefined;
    if (typeof tool === 'string') entry.tool = tool;

    const refusal = authorizationRefusal(context, request, typeof tool === 'string' ? tool : undefined);
    if (refusal !== undefined) return refusal;
    const target = new URL(url);
    target.pathname = `/${context.config.inner}`;
    return inner(
      new Request(target, {
        method: request.method,
        headers: request.headers,
        signal: request.signal,
        ...(body !== undefined && { body }),
      }),
    );
  };
}

/**
 * RFC 9728 § 2 metadata for the MCP endpoint.
 * @param {AuthContext} context
 */
function prmDocument(context) {
  const { config } = context;
  return {
    resource: context.mcpUrl,
    authorization_servers: config.authorizationServers ?? [context.issuer],
    ...(config.prmScopes !== null && { scopes_supported: config.prmScopes }),
    bearer_methods_supported: ['header'],
  };
}

/**
 * @param {AuthContext} context
 * @param {Request} request
 * @param {string | undefined} tool
 * @returns {Response | undefined}
 */
function authorizationRefusal(context, request, tool) {
  const { config } = context;
  const refuse = (/** @type {401 | 403} */ status, /** @type {Record<string, string | undefined>} */ params) => {
    const legacy = config.legacy !== 'off';
    const inHeader = config.resourceMetadataInHeader || config.prmAt === 'custom';
    const challenge = bearerChallenge({ ...params, ...(inHeader && { resource_metadata: prmUrl(context) }) });
    const headers = { 'content-type': 'application/json', ...(!legacy && { 'www-authenticate': challenge }) };
    const body = {
      jsonrpc: '2.0',
      error: { code: -32000, message: params.error_description ?? 'Unauthorized' },
      id: null,
    };
    return new Response(JSON.stringify(body), { status, headers });
  };
  const scope = config.challengeScope ?? undefined;
  const match = request.headers.get('authorization')?.match(/^Bearer\s+(\S+)$/i);
  if (!match) return refuse(401, { scope });
  const record = context.store.token(match[1] ?? '');
  const invalid = (/** @type {string} */ description) =>
    refuse(401, { error: 'invalid_token', error_description: description, scope });
  if (record === undefined || record.kind !== 'access' || !record.active)
    return invalid('The access token is unknown or revoked');
  if (record.expiresAt <= Date.now()) return invalid('The access token expired');
  // RFC 8707 / 2025-06-18 § Token Audience Binding: only tokens issued for this server.
  if (config.legacy === 'off' && record.resource !== context.mcpUrl) {
    return invalid('The access token was not issued for this resource');
  }
  const missing = config.requiredScopes.filter((needed) => !record.scope.includes(needed));
  if (missing.length > 0) {
    return refuse(403, {
      error: 'insufficient_scope',
      error_description: 'More scope is needed',
      scope: missing.join(' '),
    });
  }
  const extra = tool === undefined ? undefined : config.toolScopes[tool];
  if (extra !== undefined && !record.scope.includes(extra)) {
    return refuse(403, { error: 'insufficient_scope', error_description: `Tool ${tool} needs ${extra}`, scope: extra });
  }
  return undefined;
}

/** @param {string | undefined} body */
function parseMessage(body) {
  if (body === undefined) return undefined;
  try {
    const parsed = JSON.parse(body);
    return Array.isArray(parsed) ? parsed[0] : parsed;
  } catch {
    return undefined;
  }
}
