import { AuthError } from '../errors/auth-error.js';
import { type AddressClass, addressClass } from '../util/address-class.js';
import { isLoopback } from '../util/loopback.js';

/**
 * Refuses a URL OAuth is about to fetch or open unless it is https (MCP "Security
 * Best Practices": no `javascript:`, `data:`, `file:`, and no tokens or secrets in
 * clear). Plain http only while the MCP server itself is on this machine
 * (development set-ups). Where the URL points is `refusedAddress`'s question.
 */
export function assertSecureEndpoint(endpoint: string | URL, serverUrl: URL, what: string): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new AuthError('insecure_endpoint', `the ${what} is not a valid URL`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(serverUrl))) {
    throw new AuthError(
      'insecure_endpoint',
      `refusing the ${what} ${url.protocol}//${url.host}: https is required${url.protocol === 'http:' ? ' (plain http only for an MCP server on loopback)' : ''}`,
    );
  }
  return url;
}

/**
 * The class of address `url` names when a server may not point the client
 * there (server-side request forgery): this machine, a private network or the
 * link (where clouds serve instance credentials), unless the MCP server itself
 * is on that class of network, its URL naming `localhost` or a literal address
 * of the class. Host names are not resolved, since browsers and Workers cannot:
 * only `localhost` names and literal addresses, in every spelling the URL
 * parser accepts, are classified (address-class.ts).
 */
export function refusedAddress(url: URL, serverUrl: URL): AddressClass | undefined {
  const target = addressClass(url);
  return target === addressClass(serverUrl) ? undefined : target;
}

/** The `insecure_endpoint` error for a URL `refusedAddress` refuses. */
export function addressRefused(url: URL, serverUrl: URL, what: string, refused: AddressClass): AuthError {
  const where = refused === 'loopback' ? 'this machine' : `a ${refused} address`;
  return new AuthError(
    'insecure_endpoint',
    `refusing the ${what} ${url.origin}: the MCP server at ${serverUrl.origin} may not point the client at ${where}`,
  );
}

/** A redirect answer (or a browser's opaque one): OAuth requests never follow it. */
export function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}
