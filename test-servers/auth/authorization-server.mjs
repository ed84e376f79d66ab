import { endpointPaths, metadataDocument, metadataKindAt } from './as-metadata.mjs';
import { handleAuthorize } from './authorize-endpoint.mjs';
import { handleRegistration } from './registration-endpoint.mjs';
import { handleToken } from './token-endpoint.mjs';

/** @typedef {import('./auth-context.mjs').AuthContext} AuthContext */

/**
 * The authorization server's routes: metadata documents, /authorize, /token,
 * /register (when DCR is on) and an empty JWKS for the OIDC document. Returns
 * undefined for any other path, so the same handler can sit in front of the
 * MCP server in a 2025-03-26 scenario (AS at the MCP origin).
 * @param {AuthContext} context
 * @param {Request} request
 * @returns {Promise<Response | undefined>}
 */
export async function routeAuthorizationServer(context, request) {
  const url = new URL(request.url);
  const { config } = context;
  const kind = metadataKindAt(url.pathname, config);
  if (kind !== undefined) return Response.json(metadataDocument(config, context.issuer, context.asOrigin, kind));
  const paths = endpointPaths(config);
  if (url.pathname === paths.authorize && request.method === 'GET') return handleAuthorize(context, url);
  if (url.pathname === paths.token) return handleToken(context, request, `${context.asOrigin}${paths.token}`);
  if (url.pathname === paths.register && (config.dcr || config.legacy === 'defaults')) {
    return handleRegistration(context, request);
  }
  if (url.pathname === `${config.issuerPath}/oauth/jwks` && config.legacy === 'off') return Response.json({ keys: [] });
  return undefined;
}
