import { PROFILES } from '../reference/server-info.mjs';

/**
 * The reference server's options read from the endpoint URL
 * (`?profile=minimal|structured|url-elicitation&pageSize=N`; any other is `full`), so
 * one HTTP server can serve a capability gating test and a pagination test side by side.
 * @param {URL} url
 * @returns {import('../reference/v1-server.mjs').ReferenceServerOptions}
 */
export function serverOptionsFrom(url) {
  const asked = url.searchParams.get('profile') ?? 'full';
  const profile = /** @type {import('../reference/server-info.mjs').Profile} */ (
    PROFILES.includes(asked) ? asked : 'full'
  );
  const pageSize = Number(url.searchParams.get('pageSize') ?? '');
  return { profile, ...(Number.isInteger(pageSize) && pageSize > 0 && { pageSize }) };
}
