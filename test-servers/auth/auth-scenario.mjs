import { createServer } from 'node:http';
import { withCors } from '../http/cors.mjs';
import { toNodeListener } from '../http/node-adapter.mjs';
import { routeAuthorizationServer } from './authorization-server.mjs';
import { createGrantStore } from './grant-store.mjs';
import { createProtectedResource, prmUrl } from './protected-resource.mjs';
import { createRequestLog } from './request-log.mjs';
import { parseScenarioConfig } from './scenario-config.mjs';

/**
 * @typedef {object} ScenarioInfo
 * @property {string} id
 * @property {string} mcp the protected MCP endpoint (also the RFC 8707 resource)
 * @property {string} issuer the real issuer
 * @property {string} as the AS origin (the MCP origin in a legacy scenario)
 * @property {string | null} prm where PRM is served (null: legacy)
 */

/**
 * One scenario: an authorization server and a protected MCP server, each on
 * its own loopback origin, so root-level well-known URLs (issuer without a
 * path, root PRM) belong to this scenario alone. Both origins log every
 * request they get.
 * @param {string} id
 * @param {unknown} rawConfig checked with {@link parseScenarioConfig}; throws a TypeError when invalid
 * @param {(request: Request) => Promise<Response>} inner the reference servers (http/modes.mjs handler)
 */
export async function createAuthScenario(id, rawConfig, inner) {
  let raw = /** @type {Record<string, unknown>} */ (rawConfig ?? {});
  let config = parse(raw);
  const store = createGrantStore();
  const log = createRequestLog();
  const servers = { as: createServer(), mcp: createServer() };
  const [asOrigin, mcpOrigin] = await Promise.all([listen(servers.as), listen(servers.mcp)]);

  /** @type {import('./auth-context.mjs').AuthContext} */
  const context = {
    get config() {
      return config;
    },
    get issuer() {
      return config.legacy === 'off' ? `${asOrigin}${config.issuerPath}` : mcpOrigin;
    },
    get asOrigin() {
      return config.legacy === 'off' ? asOrigin : mcpOrigin;
    },
    mcpOrigin,
    get mcpUrl() {
      return `${mcpOrigin}${config.mcpPath}`;
    },
    store,
    log,
  };
  const protectedResource = createProtectedResource(context, inner);

  /** @param {'as' | 'mcp'} role */
  const handlerFor = (role) =>
    withCors(async (request) => {
      if (new URL(request.url).pathname === '/health') return new Response('ok');
      const entry = await log.record(role, request);
      let response;
      if (role === 'as' ? config.legacy === 'off' : config.legacy !== 'off') {
        response = await routeAuthorizationServer(context, request);
      }
      if (role === 'mcp') response ??= await protectedResource(request, entry);
      response ??= new Response('Not found', { status: 404 });
      entry.status = response.status;
      const error = await oauthErrorOf(response);
      if (error !== undefined) entry.error = error;
      return response;
    });
  servers.as.on('request', toNodeListener(handlerFor('as')));
  servers.mcp.on('request', toNodeListener(handlerFor('mcp')));

  return {
    /** @returns {ScenarioInfo} */
    info: () => ({
      id,
      mcp: context.mcpUrl,
      issuer: context.issuer,
      as: context.asOrigin,
      prm: prmUrl(context) ?? null,
    }),
    /** Everything the two servers received (request-log.mjs). */
    stats: () => log.stats(store.allTokens()),
    /**
     * Changes the running scenario: the fields given replace the current ones.
     * @param {unknown} changes
     */
    update(changes) {
      const next = { ...raw, .../** @type {Record<string, unknown>} */ (changes) };
      config = parse(next);
      raw = next;
    },
    /** Every access token issued so far now counts as expired. */
    expireTokens: () => store.expireAccessTokens(),
    async close() {
      for (const server of Object.values(servers)) server.closeAllConnections();
      await Promise.all(Object.values(servers).map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}

/** @typedef {Awaited<ReturnType<typeof createAuthScenario>>} AuthScenario */

/** @param {unknown} raw */
function parse(raw) {
  const parsed = parseScenarioConfig(raw);
  if (!parsed.ok) throw new TypeError(`Invalid auth scenario: ${parsed.message}`);
  return parsed.config;
}

/**
 * The OAuth `error` an answer carries, in a redirect's query or a JSON body.
 * @param {Response} response
 * @returns {Promise<string | undefined>}
 */
async function oauthErrorOf(response) {
  const location = response.headers.get('location');
  if (location !== null) return new URL(location).searchParams.get('error') ?? undefined;
  const challenge = response.headers.get('www-authenticate')?.match(/\berror="([^"]*)"/);
  if (challenge) return challenge[1];
  if (response.status < 400 || !(response.headers.get('content-type') ?? '').includes('json')) return undefined;
  const body = await response
    .clone()
    .json()
    .catch(() => undefined);
  return typeof body?.error === 'string' ? body.error : undefined;
}

/**
 * @param {import('node:http').Server} server
 * @returns {Promise<string>}
 */
function listen(server) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? `http://127.0.0.1:${address.port}` : '');
    });
  });
}
