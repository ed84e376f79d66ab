// Where a user may point the agent: the Worker fetches whatever URL a user adds,
// with the headers they add, so a URL is a request the Worker makes on their
// behalf. Without an allow-list only public https: hosts are taken; the
// operator's SERVER_ORIGINS lists the exact origins users may add instead.

/**
 * Why `url` may not be added by a user, or undefined when it may. With `allowed` (the
 * `SERVER_ORIGINS` variable: origins separated by commas or spaces) the URL's origin must be one of
 * them, exactly. Without it the URL must be https: to a host name: no IP literal, no `localhost`,
 * no `.local` or `.internal` name, since on a self-hosted workerd those reach the host's network.
 * The Worker cannot see what a name resolves to: on Cloudflare a subrequest reaches no private
 * network unless one is bound to the Worker.
 * @param {unknown} url
 * @param {string | undefined} allowed
 * @returns {string | undefined}
 */
export function refusedServerUrl(url, allowed) {
  if (typeof url !== 'string' || !URL.canParse(url)) return '`url` must be an http: or https: URL';
  const parsed = new URL(url);
  if (parsed.username !== '' || parsed.password !== '') return 'a server URL must not carry a user name or password';
  const origins = (allowed ?? '').split(/[\s,]+/).filter((origin) => origin !== '');
  if (origins.length > 0) {
    return origins.includes(parsed.origin) ? undefined : `servers may be added only at ${origins.join(', ')}`;
  }
  if (parsed.protocol !== 'https:') return 'a server URL must be https:';
  const host = parsed.hostname.toLowerCase();
  if (isIpLiteral(host)) return 'a server URL must name a host, not an IP address';
  if (host === 'localhost' || /\.(localhost|local|internal)$/.test(host) || !host.includes('.')) {
    return 'a server URL must name a public host';
  }
  return undefined;
}

/**
 * An IPv4 or IPv6 address as a URL's host: `[…]` for v6; for v4 the WHATWG parser has already turned
 * `0x7f.1`, `2130706433` and the like into dotted decimal.
 * @param {string} host
 */
const isIpLiteral = (host) => host.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(host);
