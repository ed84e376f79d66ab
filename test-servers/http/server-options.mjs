/**
 * The reference server's options read from the endpoint URL
 * (`?profile=minimal|structured&pageSize=N`; any other profile is `full`), so
 * one HTTP server can serve a capability gating test and a pagination test side by side.
 * @param {URL} url
 * @returns {import('../reference/v1-server.mjs').ReferenceServerOptions}
 */
export function serverOptionsFrom(url) {
  const asked = url.searchParams.get('profile');
  const profile = asked === 'minimal' || asked === 'structured' ? asked : 'full';
  const pageSize = Number(url.searchParams.get('pageSize') ?? '');
  return { profile, ...(Number.isInteger(pageSize) && pageSize > 0 && { pageSize }) };
}
