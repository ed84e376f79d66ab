/**
 * The reference server's options read from the endpoint URL
 * (`?profile=minimal&pageSize=N`), so one HTTP server can serve a capability
 * gating test and a pagination test side by side.
 * @param {URL} url
 * @returns {import('../reference/v1-server.mjs').ReferenceServerOptions}
 */
export function serverOptionsFrom(url) {
  const profile = url.searchParams.get('profile') === 'minimal' ? 'minimal' : 'full';
  const pageSize = Number(url.searchParams.get('pageSize') ?? '');
  return { profile, ...(Number.isInteger(pageSize) && pageSize > 0 && { pageSize }) };
}
