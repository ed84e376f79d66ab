/**
 * IPv4 `127.0.0.0/8` (loopback) and `0.0.0.0/8` ("this host", which connects to
 * this machine on Linux and macOS), as the URL parser writes them: it already
 * turns `127.1`, `2130706433` and `0x7f.1` into dotted quads (WHATWG URL, IPv4 parser).
 */
const LOCAL_IPV4 = /^(127|0)(\.\d{1,3}){3}$/;

/**
 * IPv6 `::1`, `::`, and the IPv4-mapped (`::ffff:`, RFC 4291 §2.5.5.2) or
 * IPv4-compatible (§2.5.5.1) forms of the ranges above, as the URL parser
 * writes them: compressed, lower-case, the IPv4 part in hex
 * (`[::ffff:127.0.0.1]` becomes `[::ffff:7f00:1]`).
 */
const LOCAL_IPV6 = /^\[::(1?|(ffff:)?(7f[\da-f]{2}|[\da-f]{1,2}):[\da-f]{1,4})\]$/;

/**
 * Whether `url` names this machine: `localhost` and `*.localhost` (RFC 6761
 * §6.3), with or without the root's trailing dot, and the loopback and
 * unspecified addresses of IPv4 and IPv6 in any spelling the URL parser
 * accepts. One rule for every "is this local" question: plain http is
 * acceptable there (RFC 8252 §8.3), and a remote server may not point the
 * client at it. A public name whose DNS answers with a loopback address is not
 * caught: that needs a resolver.
 */
export function isLoopback(url: URL): boolean {
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return host.startsWith('[') ? LOCAL_IPV6.test(host) : LOCAL_IPV4.test(host);
}
