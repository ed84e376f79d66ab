/**
 * Which kind of network a URL's host names when it is not the public internet:
 *
 * - `loopback`: this machine. `localhost` and `*.localhost` (RFC 6761 §6.3),
 *   IPv4 `127.0.0.0/8` and `0.0.0.0/8` ("this host", which connects to this
 *   machine on Linux and macOS), IPv6 `::1` and `::`.
 * - `private`: a private network. IPv4 `10.0.0.0/8`, `172.16.0.0/12`,
 *   `192.168.0.0/16` (RFC 1918) and `100.64.0.0/10` (carrier-grade NAT, RFC
 *   6598); IPv6 unique-local `fc00::/7` (RFC 4193) and site-local `fec0::/10`.
 * - `link-local`: the link. IPv4 `169.254.0.0/16` (RFC 3927, where clouds serve
 *   instance metadata and credentials) and IPv6 `fe80::/10`.
 */
export type AddressClass = 'loopback' | 'private' | 'link-local';

/** A dotted quad, the only form the URL parser writes an IPv4 host in. */
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * The class of `url`'s host, or undefined for a public address or any other
 * name. The URL parser has already turned every spelling of an address into
 * one form (WHATWG URL, host parsing): `2130706433`, `0177.0.0.1`, `0x7f.1` and
 * `127.1` become `127.0.0.1`; IPv6 is compressed and lower-case, an IPv4 part in
 * hex (`[::ffff:127.0.0.1]` becomes `[::ffff:7f00:1]`). So one form of each is
 * classified here. An IPv6 address that carries an IPv4 one takes its class:
 * mapped `::ffff:0:0/96` and compatible `::/96` (RFC 4291 §2.5.5), translated
 * `::ffff:0:0:0/96` (RFC 2765). Those that reach an IPv4 one through a gateway,
 * NAT64 `64:ff9b::/96` (RFC 6052) and 6to4 `2002::/16` (RFC 3056), are
 * `private` when that address is not public, and the local-use NAT64 prefix
 * `64:ff9b:1::/48` (RFC 8215) always is. Names are not resolved: a public name
 * whose DNS answers with a private address is not caught (that needs a resolver).
 */
export function addressClass(url: URL): AddressClass | undefined {
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  if (host.startsWith('[')) return ipv6Class(host.slice(1, -1));
  const quad = IPV4.exec(host);
  return quad ? ipv4Class(Number(quad[1]), Number(quad[2])) : undefined;
}

/** The class of an IPv4 address from its first two octets (every range here is /16 or wider). */
function ipv4Class(a: number, b: number): AddressClass | undefined {
  if (a === 127 || a === 0) return 'loopback';
  if (a === 10 || (a === 172 && b >= 16 && b < 32) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b < 128)) {
    return 'private';
  }
  return a === 169 && b === 254 ? 'link-local' : undefined;
}

/** The class of an IPv4 address from its high 16-bit group, as IPv6 carries it. */
const embedded = (high: number) => ipv4Class(high >> 8, high & 0xff);

/** The class of an IPv6 address as the URL parser writes it (no brackets, at most one `::`, no dotted part). */
function ipv6Class(text: string): AddressClass | undefined {
  const g = ipv6Groups(text);
  if (!g) return undefined;
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  const v4 = () => embedded(g[6] as number);
  // :: and ::1; compatible ::a.b.c.d (the rest of ::/112 is no IPv4 address); mapped; translated.
  if (zeros(0, 6)) return g[6] === 0 ? ((g[7] as number) <= 1 ? 'loopback' : undefined) : v4();
  if (zeros(0, 5) && g[5] === 0xffff) return v4();
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return v4();
  const first = g[0] as number;
  if (first === 0x64 && g[1] === 0xff9b) {
    if (zeros(2, 6)) return v4() && 'private';
    if (g[2] === 1) return 'private';
  }
  if (first === 0x2002) return embedded(g[1] as number) && 'private';
  if ((first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfec0) return 'private';
  return (first & 0xffc0) === 0xfe80 ? 'link-local' : undefined;
}

/** The eight 16-bit groups of a compressed IPv6 address, or undefined if it is not one. */
function ipv6Groups(text: string): number[] | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parts = (half: string | undefined) => (half ? half.split(':').map((group) => Number.parseInt(group, 16)) : []);
  const head = parts(halves[0]);
  const tail = parts(halves[1]);
  const gap = 8 - head.length - tail.length;
  if (gap < 0 || (halves.length === 1 && gap !== 0)) return undefined;
  const groups = [...head, ...new Array<number>(gap).fill(0), ...tail];
  return groups.every((group) => group >= 0 && group <= 0xffff) ? groups : undefined;
}
