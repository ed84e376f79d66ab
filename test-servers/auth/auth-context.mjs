/**
 * What every handler of one scenario shares. The config is read through a
 * getter because a test may change a running scenario (POST
 * /scenarios/<id>/config), e.g. to point PRM at another authorization server.
 *
 * @typedef {object} AuthContext
 * @property {import('./scenario-config.mjs').ScenarioConfig} config the current config
 * @property {string} issuer the real issuer: the AS origin plus `issuerPath`, or the MCP origin in a legacy scenario
 * @property {string} asOrigin where the AS endpoints are (the MCP origin in a legacy scenario)
 * @property {string} mcpOrigin
 * @property {string} mcpUrl the MCP endpoint, which is also the resource identifier (RFC 8707 canonical form)
 * @property {import('./grant-store.mjs').GrantStore} store
 * @property {import('./request-log.mjs').RequestLog} log
 */

/**
 * Whether the AS issues tokens for this resource (RFC 8707): the scenario's
 * MCP endpoint, exactly, or one of its `otherResources`.
 * @param {AuthContext} context
 * @param {string} resource
 */
export function isKnownResource(context, resource) {
  return resource === context.mcpUrl || context.config.otherResources.includes(resource);
}

/**
 * An OAuth error response (RFC 6749 § 5.2; RFC 7591 § 3.2.2 for registration).
 * @param {number} status
 * @param {string} error
 * @param {string} description
 * @param {Record<string, string>} [headers]
 */
export function oauthError(status, error, description, headers = {}) {
  return Response.json(
    { error, error_description: description },
    { status, headers: { 'cache-control': 'no-store', ...headers } },
  );
}
