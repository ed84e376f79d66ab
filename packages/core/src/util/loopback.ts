import { addressClass } from './address-class.js';

/**
 * Whether `url` names this machine: `localhost` and `*.localhost` (RFC 6761
 * §6.3), with or without the root's trailing dot, and the loopback and
 * unspecified addresses of IPv4 and IPv6 in any spelling the URL parser
 * accepts (the `loopback` class of address-class.ts). One rule for every "is
 * this local" question: plain http is acceptable there (RFC 8252 §8.3), and a
 * remote server may not point the client at it. A public name whose DNS
 * answers with a loopback address is not caught: that needs a resolver.
 */
export function isLoopback(url: URL): boolean {
  return addressClass(url) === 'loopback';
}
